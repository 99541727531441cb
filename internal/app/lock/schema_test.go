package lock

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestLockFileMatchesItsSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	// The lock's snapshots are the snapshot file's schema, by its $id.
	snap, err := os.ReadFile(filepath.Join("..", "..", "..", "schema", "snapshot.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(snap))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("https://github.com/mcp-surface/mcp-surface/schema/snapshot.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(filepath.Join("..", "..", "..", "schema", "lock.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	l := &Lock{}
	l.Put(Entry{Config: ".mcp.json", Name: "files", EntryHash: "sha256:" + strings.Repeat("ab", 32), Transport: "stdio", Launch: "npx -y files", Snapshot: snapshot(t)})
	l.Put(Entry{Config: ".mcp.json", Name: "time", EntryHash: "sha256:" + strings.Repeat("cd", 32), Transport: "stdio", Launch: "uvx mcp-server-time==1.0", Snapshot: snapshot(t),
		Package: &Package{Ecosystem: EcosystemPyPI, Registry: "http://127.0.0.1:1", Name: "mcp-server-time", Version: "1.0", Files: []DistFile{{"t-1.0.tar.gz", strings.Repeat("ef", 32)}}}})
	data, err := Encode(l)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the lock file does not match schema/lock.schema.json: %v", err)
	}
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"lockVersion":1,"servers":[{"config":".mcp.json","name":"x","entryHash":"md5:1","transport":"ws","launch":"x","snapshot":{}}]}`))
	if sch.Validate(bad) == nil {
		t.Error("the schema accepts a broken entry")
	}
}
