package actioninstall

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
)

// The runner's names and the release's, as the script maps them.
var platforms = []struct{ runnerOS, runnerArch, goos, goarch string }{
	{"Linux", "X64", "linux", "amd64"},
	{"Linux", "ARM64", "linux", "arm64"},
	{"macOS", "X64", "darwin", "amd64"},
	{"macOS", "ARM64", "darwin", "arm64"},
	{"Windows", "X64", "windows", "amd64"},
	{"Windows", "ARM64", "windows", "arm64"},
}

// assetName is the archive name .goreleaser.yaml's template makes.
func assetName(version, goos, goarch string) string {
	ext := "tar.gz"
	if goos == "windows" {
		ext = "zip"
	}
	return fmt.Sprintf("mcp-surface_%s_%s_%s.%s", strings.TrimPrefix(version, "v"), goos, goarch, ext)
}

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range append([]string{"bash", "curl", "tar", "unzip", "git", "sha256sum"}, tools...) {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the action's install script needs it", tool)
		}
	}
}

// fakeBinary is the "binary" in each archive: a script that names its
// platform, so a test sees which archive was unpacked.
func fakeBinary(version, goos, goarch string) []byte {
	return []byte(fmt.Sprintf("#!/bin/sh\necho mcp-surface %s %s/%s\n", version, goos, goarch))
}

func makeArchive(t *testing.T, version, goos, goarch string) []byte {
	t.Helper()
	var buf bytes.Buffer
	bin := fakeBinary(version, goos, goarch)
	license := []byte("MIT License\n")
	if goos == "windows" {
		zw := zip.NewWriter(&buf)
		for name, data := range map[string][]byte{"mcp-surface.exe": bin, "LICENSE": license} {
			w, err := zw.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name string
		data []byte
		mode int64
	}{{"LICENSE", license, 0o644}, {"mcp-surface", bin, 0o755}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(f.data)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// release is a stand-in for GitHub's release downloads:
// /<tag>/<file>, 404 for anything else.
type release struct {
	mu       sync.Mutex
	files    map[string][]byte // "tag/file"
	requests []string
}

func (r *release) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, req.URL.Path)
	data, ok := r.files[strings.TrimPrefix(req.URL.Path, "/")]
	if !ok {
		http.NotFound(w, req)
		return
	}
	w.Write(data)
}

func (r *release) add(t *testing.T, tag string) {
	t.Helper()
	var sums strings.Builder
	for _, p := range platforms {
		name := assetName(tag, p.goos, p.goarch)
		data := makeArchive(t, tag, p.goos, p.goarch)
		r.files[tag+"/"+name] = data
		sum := sha256.Sum256(data)
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	r.files[tag+"/checksums.txt"] = []byte(sums.String())
}

// replace serves edit's answer for key (edit is given the bytes served
// so far) until the test ends, and those bytes again after.
func (r *release) replace(t *testing.T, key string, edit func(good []byte) []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	good := r.files[key]
	r.files[key] = edit(good)
	t.Cleanup(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.files[key] = good
	})
}

// tagsRepo is a git repository standing in for the action's: v1.1.0 on
// one commit; v1.2.3 (annotated), v1.2.3-rc.1 and the major tag v1 on the
// next; v2.0.0 on a third; and an untagged head. It returns the path and
// the commits.
func tagsRepo(t *testing.T) (dir string, commits map[string]string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "action.git")
	r := gittest.Init(t, dir)
	commits = map[string]string{}
	for _, c := range []struct {
		name string
		tags []string
	}{
		{"old", []string{"v1.1.0"}},
		{"release", []string{"v1.2.3-rc.1", "annotated:v1.2.3", "v1"}},
		{"next", []string{"v2.0.0"}},
		{"head", nil},
	} {
		r.Git("commit", "-q", "--allow-empty", "-m", c.name)
		commits[c.name] = r.Git("rev-parse", "HEAD")
		for _, tag := range c.tags {
			if name, ok := strings.CutPrefix(tag, "annotated:"); ok {
				r.Git("tag", "-a", "-m", name, name)
			} else {
				r.Git("tag", tag)
			}
		}
	}
	return dir, commits
}

type result struct {
	code           int
	stdout, stderr string
	outputs        map[string]string
	binary         string // the installed binary's content, "" when none
}

// runScript runs scripts/action-install.sh with the runner's variables.
func runScript(t *testing.T, subcommand string, env map[string]string) result {
	t.Helper()
	tmp := t.TempDir()
	outFile := filepath.Join(tmp, "output")
	os.WriteFile(outFile, nil, 0o644)
	binDir := filepath.Join(tmp, "bin")
	vars := map[string]string{
		"GITHUB_OUTPUT": outFile, "BIN_DIR": binDir, "RUNNER_TEMP": tmp,
		"RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
		// The stand-in release is on loopback: no proxy in between.
		"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
	}
	for k, v := range env {
		vars[k] = v
	}
	script := filepath.Join(sharedtest.Root(t), "scripts", "action-install.sh")
	// Read here too, so that go test's cache notices an edit of the script.
	if _, err := os.ReadFile(script); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script, subcommand)
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "GITHUB_") && !strings.HasPrefix(k, "RUNNER_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), outputs: map[string]string{}}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(outFile)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			r.outputs[k] = v
		}
	}
	if data, err := os.ReadFile(filepath.Join(binDir, "mcp-surface")); err == nil {
		r.binary = string(data)
	}
	return r
}

func TestDownload(t *testing.T) {
	t.Parallel()
	needTools(t)
	rel := &release{files: map[string][]byte{}}
	for _, tag := range []string{"v1.1.0", "v1.2.3", "v1.2.3-rc.1", "v2.0.0"} {
		rel.add(t, tag)
	}
	// v1.2.4 is tagged but its archives are not uploaded yet.
	srv := httptest.NewServer(rel)
	defer srv.Close()
	tags, commits := tagsRepo(t)
	env := func(ref, runnerOS, runnerArch string) map[string]string {
		return map[string]string{"ACTION_REF": ref, "RELEASE_URL": srv.URL, "TAGS_URL": tags,
			"RUNNER_OS": runnerOS, "RUNNER_ARCH": runnerArch}
	}
	installed := func(t *testing.T, r result, version, goos, goarch string) {
		t.Helper()
		if r.code != 0 || r.outputs["installed"] != "true" || r.outputs["version"] != version {
			t.Fatalf("exit %d, outputs %v, want installed=true version=%s\nstdout:\n%s\nstderr:\n%s", r.code, r.outputs, version, r.stdout, r.stderr)
		}
		if want := string(fakeBinary(version, goos, goarch)); r.binary != want {
			t.Errorf("installed binary:\n%s\nwant the %s/%s one of %s:\n%s", r.binary, goos, goarch, version, want)
		}
	}

	t.Run("each platform gets its archive", func(t *testing.T) {
		for _, p := range platforms {
			t.Run(p.goos+"-"+p.goarch, func(t *testing.T) {
				r := runScript(t, "download", env("v1.2.3", p.runnerOS, p.runnerArch))
				installed(t, r, "v1.2.3", p.goos, p.goarch)
				if !strings.Contains(r.stdout, "verified "+assetName("v1.2.3", p.goos, p.goarch)) {
					t.Errorf("the log does not say what was verified:\n%s", r.stdout)
				}
			})
		}
	})
	t.Run("a prerelease tag", func(t *testing.T) {
		installed(t, runScript(t, "download", env("v1.2.3-rc.1", "Linux", "ARM64")), "v1.2.3-rc.1", "linux", "arm64")
	})
	t.Run("the major tag is the stable release on its commit", func(t *testing.T) {
		installed(t, runScript(t, "download", env("v1", "macOS", "ARM64")), "v1.2.3", "darwin", "arm64")
	})
	t.Run("a release's commit SHA", func(t *testing.T) {
		installed(t, runScript(t, "download", env(commits["release"], "Linux", "X64")), "v1.2.3", "linux", "amd64")
		installed(t, runScript(t, "download", env(commits["next"], "Linux", "X64")), "v2.0.0", "linux", "amd64")
	})

	notInstalled := func(t *testing.T, r result, why string) {
		t.Helper()
		if r.code != 0 || r.outputs["installed"] != "false" || r.binary != "" {
			t.Fatalf("exit %d, outputs %v, binary %q: want installed=false and no binary\nstdout:\n%s\nstderr:\n%s", r.code, r.outputs, r.binary, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, why) {
			t.Errorf("the log does not say %q:\n%s", why, r.stdout)
		}
	}
	for _, tc := range []struct{ name, ref, runnerOS, runnerArch, why string }{
		{"a branch", "main", "Linux", "X64", "no release tag"},
		{"a local action", "", "Linux", "X64", "local action"},
		{"an untagged commit", commits["head"], "Linux", "X64", "is no release"},
		{"an unknown SHA", strings.Repeat("0", 40), "Linux", "X64", "is no release"},
		{"a major tag without a release", "v3", "Linux", "X64", "points at no release"},
		{"a release whose archives are missing", "v1.2.4", "Linux", "X64", "could not download"},
		{"a 32-bit runner", "v1.2.3", "Linux", "X86", "architecture"},
		{"an unknown OS", "v1.2.3", "Plan9", "X64", "OS"},
	} {
		t.Run("falls back on "+tc.name, func(t *testing.T) {
			notInstalled(t, runScript(t, "download", env(tc.ref, tc.runnerOS, tc.runnerArch)), tc.why)
		})
	}

	refused := func(t *testing.T, r result, want string) {
		t.Helper()
		if r.code == 0 || r.binary != "" || r.outputs["installed"] == "true" {
			t.Fatalf("exit %d, outputs %v, binary %q: want a failure and nothing installed", r.code, r.outputs, r.binary)
		}
		if !strings.Contains(r.stdout, "::error") || !strings.Contains(r.stdout, want) {
			t.Errorf("the log lacks an error saying %q:\n%s", want, r.stdout)
		}
	}
	t.Run("a corrupted archive is refused", func(t *testing.T) {
		rel.replace(t, "v1.2.3/"+assetName("v1.2.3", "linux", "amd64"), func(good []byte) []byte {
			bad := bytes.Clone(good)
			bad[len(bad)/2] ^= 0xff
			return bad
		})
		refused(t, runScript(t, "download", env("v1.2.3", "Linux", "X64")), "does not match")
	})
	t.Run("an archive checksums.txt does not list is refused", func(t *testing.T) {
		rel.replace(t, "v1.2.3/checksums.txt", func(good []byte) []byte {
			var kept []string
			for _, line := range strings.Split(string(good), "\n") {
				if !strings.Contains(line, "_darwin_arm64.") {
					kept = append(kept, line)
				}
			}
			return []byte(strings.Join(kept, "\n"))
		})
		refused(t, runScript(t, "download", env("v1.2.3", "macOS", "ARM64")), "has no SHA-256")
	})
	t.Run("server text is not echoed into the log", func(t *testing.T) {
		rel.replace(t, "v1.2.3/checksums.txt", func([]byte) []byte {
			return []byte("::error::injected  " + assetName("v1.2.3", "linux", "amd64") + "\n")
		})
		r := runScript(t, "download", env("v1.2.3", "Linux", "X64"))
		refused(t, r, "has no SHA-256")
		if strings.Contains(r.stdout+r.stderr, "injected") {
			t.Errorf("the server's text reached the log:\n%s%s", r.stdout, r.stderr)
		}
	})
}

// TestBuildFallback builds from a small stand-in of the action's source:
// a main package that prints the version internal/app/version was stamped
// with, as the script stamps it from the ref.
func TestBuildFallback(t *testing.T) {
	t.Parallel()
	needTools(t, "go")
	src := t.TempDir()
	files := map[string]string{
		"go.mod":                        "module github.com/mcp-surface/mcp-surface\n\ngo 1.21\n",
		"main.go":                       "package main\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/mcp-surface/mcp-surface/internal/app/version\"\n)\n\nfunc main() { fmt.Println(\"built\", version.Stamp()) }\n",
		"internal/app/version/stamp.go": "package version\n\nvar version, commit string\n\nfunc Stamp() string { return version + \"|\" + commit }\n",
	}
	for name, data := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755)
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ ref, want string }{
		{"main", "built main|"},
		{"feature/x", "built feature/x|"},
		{strings.Repeat("ab", 20), "built |" + strings.Repeat("ab", 20)},
		{"", "built |"},
		{"bad'ref", "built |"},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			tmp := t.TempDir()
			env := map[string]string{"ACTION_REF": tc.ref, "SOURCE_DIR": src, "BIN_DIR": filepath.Join(tmp, "bin")}
			// As action.yml runs it: download says no, then build.
			env["RELEASE_URL"] = "http://127.0.0.1:9/unused"
			env["TAGS_URL"] = filepath.Join(tmp, "no-such-repo")
			if r := runScript(t, "download", env); r.code != 0 || r.outputs["installed"] != "false" {
				t.Fatalf("download: exit %d, outputs %v\n%s%s", r.code, r.outputs, r.stdout, r.stderr)
			}
			if r := runScript(t, "build", env); r.code != 0 {
				t.Fatalf("build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			out, err := exec.Command(filepath.Join(tmp, "bin", "mcp-surface")).CombinedOutput()
			if err != nil {
				t.Fatalf("the built binary: %v\n%s", err, out)
			}
			if got := strings.TrimSpace(string(out)); got != tc.want {
				t.Errorf("the built binary says %q, want %q", got, tc.want)
			}
		})
	}
}

// TestArchiveNames reads the other side of the contract: the archive
// template and formats of .goreleaser.yaml, and action.yml's use of the
// script.
func TestArchiveNames(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(sharedtest.Root(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		ProjectName string `yaml:"project_name"`
		Builds      []struct {
			Goos   []string `yaml:"goos"`
			Goarch []string `yaml:"goarch"`
		} `yaml:"builds"`
		Archives []struct {
			NameTemplate    string   `yaml:"name_template"`
			Formats         []string `yaml:"formats"`
			FormatOverrides []struct {
				Goos    string   `yaml:"goos"`
				Formats []string `yaml:"formats"`
			} `yaml:"format_overrides"`
		} `yaml:"archives"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
			Algorithm    string `yaml:"algorithm"`
		} `yaml:"checksum"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 || len(cfg.Archives) != 1 {
		t.Fatalf("want one build and one archive in .goreleaser.yaml, got %d and %d", len(cfg.Builds), len(cfg.Archives))
	}
	a := cfg.Archives[0]
	// The template, filled in as goreleaser does (Version has no v).
	fill := func(version, goos, goarch string) string {
		return strings.NewReplacer("{{ .ProjectName }}", cfg.ProjectName, "{{ .Version }}", strings.TrimPrefix(version, "v"),
			"{{ .Os }}", goos, "{{ .Arch }}", goarch).Replace(a.NameTemplate)
	}
	var built []string
	for _, goos := range cfg.Builds[0].Goos {
		for _, goarch := range cfg.Builds[0].Goarch {
			built = append(built, goos+"/"+goarch)
			format := a.Formats
			for _, o := range a.FormatOverrides {
				if o.Goos == goos {
					format = o.Formats
				}
			}
			if len(format) != 1 {
				t.Fatalf("%s/%s: want one archive format, got %v", goos, goarch, format)
			}
			if got, want := fill("v1.2.3", goos, goarch)+"."+format[0], assetName("v1.2.3", goos, goarch); got != want {
				t.Errorf("%s/%s: .goreleaser.yaml makes %s, the action asks for %s", goos, goarch, got, want)
			}
		}
	}
	var want []string
	for _, p := range platforms {
		want = append(want, p.goos+"/"+p.goarch)
	}
	if strings.Join(built, " ") != strings.Join(want, " ") {
		t.Errorf(".goreleaser.yaml builds %v, the action maps the runners to %v", built, want)
	}
	if cfg.Checksum.NameTemplate != "checksums.txt" || cfg.Checksum.Algorithm != "sha256" {
		t.Errorf(".goreleaser.yaml checksum = %+v, the action reads a SHA-256 checksums.txt", cfg.Checksum)
	}

	// action.yml downloads, then builds only when the download did not
	// install.
	act, err := os.ReadFile(filepath.Join(sharedtest.Root(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Runs struct {
			Steps []struct {
				ID  string            `yaml:"id"`
				If  string            `yaml:"if"`
				Run string            `yaml:"run"`
				Env map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(act, &m); err != nil {
		t.Fatal(err)
	}
	var download, build int = -1, -1
	for i, s := range m.Runs.Steps {
		switch {
		case strings.Contains(s.Run, "action-install.sh\" download"):
			download = i
			for _, k := range []string{"ACTION_REF", "RELEASE_URL", "TAGS_URL", "BIN_DIR"} {
				if s.Env[k] == "" {
					t.Errorf("the download step sets no %s", k)
				}
			}
		case strings.Contains(s.Run, "action-install.sh\" build"):
			build = i
			if !strings.Contains(s.If, "steps."+m.Runs.Steps[max(download, 0)].ID+".outputs.installed != 'true'") {
				t.Errorf("the build step runs when the download installed the binary: if: %s", s.If)
			}
		}
	}
	if download < 0 || build < download {
		t.Errorf("action.yml: want a download step (%d) before a build step (%d)", download, build)
	}
}
