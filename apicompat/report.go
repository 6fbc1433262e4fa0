package apicompat

import (
	"fmt"
	"sort"
	"strings"
)

// Finding is one problem with one upstream name.
type Finding struct {
	// Name is the upstream name, "Type" or "Type.Method" / "Type.Field".
	Name string
	// Reason says what differs, in upstream's terms.
	Reason string
}

func (f Finding) String() string { return f.Name + ": " + f.Reason }

// Report is the result of comparing one upstream package with ours.
type Report struct {
	// Upstream and Ours are the import paths compared.
	Upstream, Ours string
	// Shared lists the exported upstream names ours declares, sorted.
	Shared []string
	// Missing lists the exported upstream names ours does not declare,
	// sorted.
	Missing []string
	// Incompatible lists the shared names whose declaration code written
	// against upstream does not compile with, sorted by name.
	Incompatible []Finding
	// ExtraMethods lists interfaces for which ours requires methods that
	// upstream does not: code calling the interface compiles, code
	// implementing it does not.
	ExtraMethods []Finding
}

// IncompatibleNames returns the distinct top-level names with at least one
// incompatibility, sorted.
func (r *Report) IncompatibleNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range r.Incompatible {
		top, _, _ := strings.Cut(f.Name, ".")
		if !seen[top] {
			seen[top] = true
			out = append(out, top)
		}
	}
	sort.Strings(out)
	return out
}

// String renders the report for humans, one problem per line.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s -> %s: %d shared, %d missing, %d incompatible names\n",
		r.Upstream, r.Ours, len(r.Shared), len(r.Missing), len(r.IncompatibleNames()))
	for _, m := range r.Missing {
		fmt.Fprintf(&b, "  missing %s\n", m)
	}
	for _, f := range r.Incompatible {
		fmt.Fprintf(&b, "  incompatible %s\n", f)
	}
	for _, f := range r.ExtraMethods {
		fmt.Fprintf(&b, "  extra %s\n", f)
	}
	return b.String()
}

func (r *Report) sortAll() {
	sort.Strings(r.Shared)
	sort.Strings(r.Missing)
	byName := func(fs []Finding) {
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	}
	byName(r.Incompatible)
	byName(r.ExtraMethods)
}
