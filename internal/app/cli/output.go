package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// reportFlags are the flags of every command that reports findings, and
// what they resolve to.
type reportFlags struct {
	commonFlags
	out    outputFlags
	failOn rules.Level
	now    time.Time
	cfg    *config.Config // nil without a configuration file
	// maxSnapshot bounds each snapshot file read (0: the default).
	maxSnapshot int64
}

func (rf *reportFlags) register(fs *flag.FlagSet) {
	rf.commonFlags.register(fs, "text")
	rf.out.register(fs, &rf.commonFlags)
}

// resolve checks the formats (but one of own, which the command renders
// itself) and --fail-on, then reads the date and the configuration.
func (rf *reportFlags) resolve(ctx context.Context, env *Env, own ...string) error {
	if !slices.Contains(own, rf.format) {
		if err := rf.out.check(); err != nil {
			return err
		}
	}
	if err := rf.out.checkFiles(); err != nil {
		return err
	}
	var err error
	if rf.failOn, err = rf.failLevel(); err != nil {
		return err
	}
	if rf.maxSnapshot, err = frontend.SnapshotLimit(env.Getenv); err != nil {
		return err
	}
	if rf.now, err = frontend.Today(env.Getenv, time.Now); err != nil {
		return err
	}
	rf.cfg, err = frontend.LoadConfig(ctx, rf.config)
	return err
}

// emit renders a report to stdout and to every --output.
func (rf *reportFlags) emit(ctx context.Context, env *Env, r *report.Report) error {
	return rf.out.emit(ctx, env, r, rf.out.options(env, rf.failOn))
}

// outputFlags choose what a reporting command writes besides stdout:
// `--output FORMAT=FILE` (repeatable), or `--format F --output FILE`
// pairs (each --output takes the --format given before it).
type outputFlags struct {
	common   *commonFlags
	outputs  []frontend.Output
	showInfo bool
	verbose  bool
	color    string
}

func (of *outputFlags) register(fs *flag.FlagSet, common *commonFlags) {
	of.common = common
	fs.Func("output", "also write a report to a file: `FORMAT=FILE` (e.g. sarif=mcp.sarif), or FILE in the last --format given (repeatable)", func(v string) error {
		format, path, ok := strings.Cut(v, "=")
		if !ok || strings.ContainsAny(format, "/\\.") {
			format, path = common.format, v
		}
		if path == "" {
			return fmt.Errorf("--output %q: no file", v)
		}
		of.outputs = append(of.outputs, frontend.Output{Format: format, Path: path})
		return nil
	})
	fs.BoolVar(&of.showInfo, "show-info", false, "also show info findings (hidden by default in every format but json)")
	fs.BoolVar(&of.verbose, "verbose", false, "list every finding on its own, with every before and after value (text; the markdown tables too)")
	fs.StringVar(&of.color, "color", "auto", "colour in the text format: auto|always|never (auto: a terminal, and NO_COLOR unset)")
}

// check validates the formats once flags are parsed.
func (of *outputFlags) check() error {
	if !slices.Contains(frontend.Formats.Names(), of.common.format) {
		return usagef("unknown --format %q; use %s", of.common.format, strings.Join(frontend.Formats.Names(), ", "))
	}
	for _, o := range of.outputs {
		if !slices.Contains(frontend.Formats.Names(), o.Format) {
			return usagef("--output %s: unknown format %q; use %s", o.Path, o.Format, strings.Join(frontend.Formats.Names(), ", "))
		}
	}
	if !slices.Contains([]string{"auto", "always", "never"}, of.color) {
		return usagef("--color %q: use auto, always or never", of.color)
	}
	return nil
}

// checkFiles refuses, before any work, an --output that cannot be written.
func (of *outputFlags) checkFiles() error {
	for _, o := range of.outputs {
		if err := frontend.CheckOutput("--output "+o.Format+"="+o.Path, o.Path); err != nil {
			return err
		}
	}
	return nil
}

func (of *outputFlags) options(env *Env, failOn rules.Level) report.Options {
	color := of.color == "always"
	if of.color == "auto" && env.Getenv("NO_COLOR") == "" && env.IsTerminal != nil && env.IsTerminal() {
		color = true
	}
	return report.Options{FailOn: failOn, ShowInfo: of.showInfo, Verbose: of.verbose, Color: color}
}

// emit renders the report to stdout in --format and to every --output.
func (of *outputFlags) emit(ctx context.Context, env *Env, r *report.Report, o report.Options) error {
	return frontend.Emit(ctx, env.Stdout, of.common.format, of.outputs, r, o)
}
