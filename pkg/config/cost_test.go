package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func TestCost(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cost.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("cost.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	want := Cost{Set: true, Encoding: "cl100k_base", Budget: Budget{Total: 20000, PerTool: 1500, IncreasePercent: 10, Level: rules.LevelError}}
	if d := cmp.Diff(want, c.Cost); d != "" {
		t.Errorf("cost (-want +got):\n%s", d)
	}

	for src, want := range map[string]Budget{
		"cost: {budget: {increase: 500}}":        {IncreaseTokens: 500},
		"cost: {budget: {increase: 2.5%}}":       {IncreasePercent: 2.5},
		"cost: {budget: {increase: 0.5%}}":       {IncreasePercent: 0.5},
		"cost: {budget: {level: risky}}":         {Level: rules.LevelWarning},
		"cost: {budget: {}}":                     {},
		"cost: {budget: {total: 1, perTool: 2}}": {Total: 1, PerTool: 2},
	} {
		c, err := Parse("x", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if c.Cost.Budget != want || !c.Cost.Set {
			t.Errorf("%s: %+v, want %+v", src, c.Cost, want)
		}
	}

	// Without cost:, nothing is set; an empty cost: mapping sets it.
	c, err = Parse("x", []byte("profile: strict\n"))
	if err != nil || c.Cost != (Cost{}) {
		t.Errorf("no cost: key: %+v, %v", c, err)
	}
	c, err = Parse("x", []byte("cost: {}\n"))
	if err != nil || c.Cost != (Cost{Set: true}) {
		t.Errorf("cost: {}: %+v, %v", c, err)
	}

	for src, msg := range map[string]string{
		"cost: {encoding: o200k}":         `unknown cost.encoding "o200k": use o200k_base (the default) or cl100k_base`,
		"cost: {budget: {increase: 0%}}":  `cost.budget.increase: "0%" is not a positive percentage`,
		"cost: {budget: {increase: ten}}": `cost.budget.increase: "ten" is not a positive percentage`,
		"cost: {budget: {increase: 1.5}}": `cost.budget.increase must be a number of tokens (500) or a percentage (10%), not "1.5"`,
		"cost: {budget: {perTool: -1}}":   `cost.budget.perTool must be a positive number of tokens, not -1`,
		"cost: {budget: {level: off}}":    `unknown cost.budget.level "off"`,
		"cost: {budget: {totl: 5}}":       `unknown key "totl" (did you mean "total"?)`,
	} {
		_, err := Parse("x", []byte(src))
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", src, err, msg)
		}
	}
}
