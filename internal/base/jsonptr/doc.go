// Package jsonptr is the project's one JSON Pointer (RFC 6901): findings
// point into their subject with it, the schema comparison and the lint
// build pointers with it, and the locator and the report read them back
// with it. Keeping one escaper means a pointer built by one package is
// parsed the same way by every other.
package jsonptr
