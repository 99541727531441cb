//go:build !unix

package cputime

import "time"

// Used is not measured here (0): the benchmarks report wall time only.
func Used() time.Duration { return 0 }
