package config

import "testing"

func TestServerNamed(t *testing.T) {
	c := &Config{Servers: []Server{{Name: "a"}, {Name: "b"}}}
	if s, err := c.ServerNamed("b"); err != nil || s != &c.Servers[1] {
		t.Errorf("ServerNamed(b) = %v, %v", s, err)
	}
	if _, err := c.ServerNamed("c"); err == nil || err.Error() != "has no such server (servers: a, b)" {
		t.Errorf("ServerNamed(c): %v", err)
	}
	c = &Config{Servers: []Server{{Name: "weather"}, {Name: "notes"}}}
	if _, err := c.ServerNamed("wether"); err == nil || err.Error() != `has no such server (did you mean "weather"?)` {
		t.Errorf("ServerNamed(wether): %v", err)
	}
}
