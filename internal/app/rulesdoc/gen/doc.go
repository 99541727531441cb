// Command gen writes docs/rules.md from the rule table and the fixtures:
//
//	go run ./internal/app/rulesdoc/gen [REPOSITORY-ROOT]
//
// The root defaults to the working directory; go generate runs it from
// internal/app/rulesdoc with ../../..
package main
