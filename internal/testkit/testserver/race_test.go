//go:build race

package testserver_test

func init() { raceEnabled = true }
