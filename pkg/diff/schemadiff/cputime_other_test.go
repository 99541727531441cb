//go:build !unix

package schemadiff

import "time"

func cpuTime() time.Duration { return 0 }
