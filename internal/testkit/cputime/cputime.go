// Package cputime reads the process's CPU time, for the benchmarks that
// report the work a step does (cpu-s/op): on a loaded machine wall time
// also measures the wait for a CPU.
package cputime
