package config

import (
	"fmt"
	"strings"
)

// ServerNamed is the entry of servers called name. The error, when there
// is none, lists the names there are; the caller prefixes the flag or
// input and the file.
func (c *Config) ServerNamed(name string) (*Server, error) {
	var names []string
	for i := range c.Servers {
		if c.Servers[i].Name == name {
			return &c.Servers[i], nil
		}
		names = append(names, c.Servers[i].Name)
	}
	if sug := didYouMean(name, names); sug != "" && len(name) > 3 {
		return nil, fmt.Errorf("has no such server%s", sug)
	}
	return nil, fmt.Errorf("has no such server (servers: %s)", strings.Join(names, ", "))
}
