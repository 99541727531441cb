// Command gen writes docs/rules.md from the rule table and the fixtures:
//
//	go run ./internal/rulesdoc/gen [REPOSITORY-ROOT]
//
// The root defaults to the working directory; go generate runs it from
// internal/rulesdoc with ../..
package main
