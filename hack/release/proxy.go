package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// Proxy is a module proxy in a directory: the files of the GOPROXY protocol
// (<module>/@v/list, <version>.info, .mod and .zip) that the go command
// reads through a file:// URL. A Proxy is not safe for concurrent use.
type Proxy struct {
	// Dir is the proxy's root directory.
	Dir string
}

// URL is the GOPROXY entry that serves p.
func (p Proxy) URL() string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p.Dir)}).String()
}

// Add serves module m from revision rev (a tag or commit) of the Git work
// tree repo, where the module's go.mod is in folder subdir ("" for the
// repository's root): the zip holds what `git archive` gives for subdir,
// without nested modules, as a public proxy builds it.
func (p Proxy) Add(repo, rev, subdir string, m module.Version) error {
	dir, err := p.versionDir(m.Path)
	if err != nil {
		return err
	}
	ver, err := module.EscapeVersion(m.Version)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var z bytes.Buffer
	if err := zip.CreateFromVCS(&z, m, repo, rev, subdir); err != nil {
		return fmt.Errorf("proxy: zip of %s: %w", m, err)
	}
	gomod, err := git(repo, "show", rev+":"+path.Join(subdir, "go.mod"))
	if err != nil {
		return fmt.Errorf("proxy: go.mod of %s: %w", m, err)
	}
	info, err := revisionInfo(repo, rev, m.Version)
	if err != nil {
		return fmt.Errorf("proxy: info of %s: %w", m, err)
	}
	files := map[string][]byte{ver + ".zip": z.Bytes(), ver + ".mod": gomod, ver + ".info": info}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			return err
		}
	}
	list, err := os.OpenFile(filepath.Join(dir, "list"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(list, m.Version)
	if cerr := list.Close(); err == nil {
		err = cerr
	}
	return err
}

// versionDir is the folder of modulePath's versions: <module>/@v, the path
// escaped as the protocol escapes it (upper-case letters as !lower).
func (p Proxy) versionDir(modulePath string) (string, error) {
	esc, err := module.EscapePath(modulePath)
	if err != nil {
		return "", err
	}
	return filepath.Join(p.Dir, filepath.FromSlash(esc), "@v"), nil
}

// revisionInfo is the .info file of version: the version and the time of
// the commit rev names.
func revisionInfo(repo, rev, version string) ([]byte, error) {
	out, err := git(repo, "show", "-s", "--format=%cI", rev+"^{commit}")
	if err != nil {
		return nil, err
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, t.UTC()})
}

// git runs git with args in the work tree repo and returns its output.
func git(repo string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = repo
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}
