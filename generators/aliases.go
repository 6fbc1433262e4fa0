package generators

import (
	"bufio"
	"fmt"
	"go/token"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// alias returns name as an import name for a generated package (a group's
// or version's), with suffix appended when a template already imports a
// fixed package under that name.
func (b *modelBuilder) alias(name, suffix string) string {
	if b.reserved[name] {
		return name + suffix
	}
	return name
}

// fixedImportNames returns the names under which the templates in src
// import fixed packages, read from their import blocks: `name "path"`
// lines, and `"path"` lines, named after the path's last element. Lines
// starting with an action ({{) import generated packages and are skipped.
func fixedImportNames(src fs.FS) (map[string]bool, error) {
	names, err := fs.Glob(src, "*.tmpl")
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, name := range names {
		text, err := fs.ReadFile(src, name)
		if err != nil {
			return nil, err
		}
		if err := addImportNames(out, string(text)); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return out, nil
}

// addImportNames adds the import names of the import block of the template
// text to names.
func addImportNames(names map[string]bool, text string) error {
	s := bufio.NewScanner(strings.NewReader(text))
	inBlock := false
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		switch {
		case line == "import (":
			inBlock = true
		case !inBlock || line == "" || strings.HasPrefix(line, "{{"):
		case line == ")":
			return nil
		default:
			name, err := importName(line)
			if err != nil {
				return err
			}
			if name != "_" { // a blank import binds no name
				names[name] = true
			}
		}
	}
	return s.Err()
}

// importName returns the name an import line (`"path"` or `name "path"`)
// binds.
func importName(line string) (string, error) {
	name, quoted, named := strings.Cut(line, " ")
	if !named {
		quoted = line
	}
	p, err := strconv.Unquote(strings.TrimSpace(quoted))
	if err != nil {
		return "", fmt.Errorf("import line %q: %w", line, err)
	}
	if !named {
		name = path.Base(p)
	}
	if !token.IsIdentifier(name) {
		return "", fmt.Errorf("import line %q: %q is not a package name; name the import", line, name)
	}
	return name, nil
}
