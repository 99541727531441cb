package initproject

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
)

// Refresh is the command that rewrites the snapshot.
func Refresh(snapshot string, cmd []string) string {
	return "mcp-surface snapshot -o " + cmdline.Word(snapshot) + " -- " + cmdline.Join(cmd)
}

// Write writes the workflow, the package.json script (node) and the
// pre-commit hook (when the repository has a .pre-commit-config.yaml
// without one) for the server cmd and the snapshot (slash-separated, from
// p.Dir), with the action at uses. It returns what it wrote, from the
// repository's top.
func (p *Project) Write(ctx context.Context, cmd []string, snapshot, uses string) ([]string, error) {
	var wrote []string
	workflowPath := filepath.Join(p.Repo, filepath.FromSlash(Workflow))
	if err := os.MkdirAll(filepath.Dir(workflowPath), 0o755); err != nil {
		return wrote, fmt.Errorf("init: %w", err)
	}
	if err := outfile.Write(ctx, workflowPath, []byte(p.WorkflowText(cmd, snapshot, uses))); err != nil {
		return wrote, fmt.Errorf("init: writing the workflow: %w", err)
	}
	wrote = append(wrote, Workflow)

	if p.Eco.Name == "node" {
		// As json.Marshal writes it, as init always has.
		v, _ := json.Marshal(Refresh(snapshot, cmd))
		if err := p.pkg.Set(v, "scripts", Script); err != nil {
			return wrote, fmt.Errorf("init: package.json: %w", err)
		}
		if err := outfile.Write(ctx, filepath.Join(p.Dir, "package.json"), p.pkg.Bytes()); err != nil {
			return wrote, fmt.Errorf("init: writing package.json: %w", err)
		}
		wrote = append(wrote, joinRel(p.Rel, "package.json")+" (script "+Script+")")
	}

	pc := filepath.Join(p.Repo, ".pre-commit-config.yaml")
	b, err := infile.Read(ctx, pc, ".pre-commit-config.yaml", maxInput)
	if errors.Is(err, fs.ErrNotExist) {
		return wrote, nil
	}
	if err != nil {
		return wrote, fmt.Errorf("init: %w", err)
	}
	text, err := p.preCommitText(string(b), snapshot, cmd, uses)
	if err != nil || text == "" {
		return wrote, err
	}
	if err := outfile.Write(ctx, pc, []byte(text)); err != nil {
		return wrote, fmt.Errorf("init: writing .pre-commit-config.yaml: %w", err)
	}
	return append(wrote, ".pre-commit-config.yaml (hook mcp-surface-snapshot-check)"), nil
}

// joinRel is name in the directory rel of the repository.
func joinRel(rel, name string) string { return path.Join(rel, name) }
