package apicompat_test

import (
	"bytes"
	"go/format"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"text/template"
)

// TestGeneratedListersBehaveAsClientGo is the behaviour differential of
// generated code: for every lister client-go v0.37.2 has for k8s.io/api, it
// generates a test (testdata/listerbehaviour) into the module the
// migration guide's recipe ported, which stores the same objects through client-go's
// informer (its factory's, or a plain indexer for the types client-go has
// no informer for) and ours, and compares what every read observes: List
// with several selectors, Get found and not found, namespace listers
// (including the wrong namespace and NamespaceAll), the generic lister of
// ForResource, and the indexer's ByIndex, Index, IndexKeys and
// ListIndexFuncValues through the namespace index and a missing one, before
// and after deletes. Results compare as nil or not, members, the very
// objects stored and client-go's order where it guarantees one; errors as
// type, message, reason, IsNotFound and Status (details included).
func TestGeneratedListersBehaveAsClientGo(t *testing.T) {
	k := portedKubernetes(t)
	cases := listerCases(t, k)
	if len(cases) < 100 {
		t.Fatalf("found only %d client-go listers; the enumeration is wrong", len(cases))
	}
	src := renderBehaviourTest(t, cases)
	dir := filepath.Join(k.dir, "pkg", "behaviour")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "behaviour_test.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	informers, generic := 0, 0
	for _, c := range cases {
		if c.Up.Informer != nil {
			informers++
		}
		if c.Up.Resource != "" {
			generic++
		}
	}
	t.Logf("comparing %d listers of k8s.io/api (%d through a factory's informer, %d with a generic lister)", len(cases), informers, generic)
	// The test imports what the ported code no longer does (client-go's
	// informers, since the recipe's go mod tidy): record it first.
	if out, err := command(k.dir, "go", "mod", "tidy"); err != nil {
		t.Fatalf("go mod tidy with the behaviour test in %s:\n%s\n%v", k.dir, out, err)
	}
	// -vet=off: the generated test is only compiled and run here (vetting
	// its 149 cases costs seconds and checks nothing of ours); -trimpath,
	// as every build of the ported module (command).
	out, err := command(k.dir, "go", "test", "-trimpath", "-count=1", "-vet=off", "./pkg/behaviour")
	if err != nil {
		const max = 40000
		msg := err.Error()
		if len(msg) > max {
			msg = msg[:max] + "\n[truncated]"
		}
		t.Fatalf("generated listers do not behave as client-go's:\n%s", msg)
	}
	t.Log(strings.TrimSpace(out))
}

// listerCase is one client-go lister and what the generated test needs to
// build it and ours.
type listerCase struct {
	Group, Version, Kind string // listers/<Group>/<Version>, <Kind>Lister
	API                  string // import alias of the API package
	Namespaced           bool
	Up, Ours             listerSide
}

// listerSide is one implementation's way to a type's lister.
type listerSide struct {
	API, Kind                     string
	Namespaced                    bool
	NamespaceAccessor             string // "Pods"
	Informer                      *informerAccessors
	Resource                      string // for ForResource; "" when client-go's has none
	Informers, Listers            string // import aliases
	Generic, NewIndexer           string // the harness's functions of this side
	listersPath, apiPath, apiName string
}

// informerAccessors are the factory's method chain to a type's informer:
// f.Core().V1().Pods().
type informerAccessors struct{ Group, Version, Kind string }

type importSpec struct{ Alias, Path string }

// listerCases enumerates client-go's listers of k8s.io/api from their
// declarations (a <Kind>Lister interface with New<Kind>Lister), with the
// factory accessors of their informers and the resources of client-go's
// ForResource.
func listerCases(t *testing.T, k *portedKube) []listerCase {
	t.Helper()
	pkgs := k.packages(t)
	accessors := informerAccessorsOf(t, pkgs)
	resources := forResourceResources(t, k)
	var cases []listerCase
	for path, p := range pkgs {
		rest, ok := strings.CutPrefix(path, "k8s.io/client-go/listers/")
		if !ok {
			continue
		}
		gv := strings.Split(rest, "/")
		if len(gv) != 2 {
			continue
		}
		for _, name := range p.Scope().Names() {
			c, ok := listerCaseOf(p, name, gv[0], gv[1])
			if !ok {
				continue
			}
			c.Up.Informer = accessors[rest+"/"+c.Kind]
			if c.Up.Informer != nil {
				c.Up.Resource = resources[*c.Up.Informer]
			}
			c.Ours = c.Up
			c.Up.Informers, c.Up.Generic, c.Up.NewIndexer, c.Up.Listers = "upinformers", "upstreamGeneric", "upstreamIndexer", "up"+alias(rest)
			c.Ours.Informers, c.Ours.Generic, c.Ours.NewIndexer, c.Ours.Listers = "ourinformers", "ourGeneric", "ourIndexer", "our"+alias(rest)
			c.Ours.listersPath = kubegenModule + "/listers/" + rest
			cases = append(cases, c)
		}
	}
	sort.Slice(cases, func(i, j int) bool {
		a, b := cases[i], cases[j]
		return a.Group+"/"+a.Version+"/"+a.Kind < b.Group+"/"+b.Version+"/"+b.Kind
	})
	return cases
}

// listerCaseOf returns the case of name in the client-go lister package p
// when name is a generated lister interface.
func listerCaseOf(p *types.Package, name, group, version string) (listerCase, bool) {
	kind, ok := strings.CutSuffix(name, "Lister")
	if !ok || strings.HasSuffix(kind, "Namespace") || p.Scope().Lookup("New"+name) == nil {
		return listerCase{}, false
	}
	iface, ok := p.Scope().Lookup(name).Type().Underlying().(*types.Interface)
	if !ok {
		return listerCase{}, false
	}
	var side listerSide
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		sig := m.Type().(*types.Signature)
		if sig.Results().Len() == 0 {
			continue
		}
		res := sig.Results().At(0).Type()
		if m.Name() == "List" {
			elem, ok := res.(*types.Slice)
			if !ok {
				return listerCase{}, false
			}
			ptr, ok := elem.Elem().(*types.Pointer)
			if !ok {
				return listerCase{}, false
			}
			named, ok := ptr.Elem().(*types.Named)
			if !ok {
				return listerCase{}, false
			}
			side.apiPath, side.apiName = named.Obj().Pkg().Path(), named.Obj().Name()
		}
		if named, ok := res.(*types.Named); ok && named.Obj().Name() == kind+"NamespaceLister" {
			side.Namespaced, side.NamespaceAccessor = true, m.Name()
		}
	}
	if side.apiName != kind {
		return listerCase{}, false
	}
	api := "api" + alias(strings.TrimPrefix(side.apiPath, "k8s.io/api/"))
	side.API, side.Kind = api, kind
	side.listersPath = p.Path()
	return listerCase{Group: group, Version: version, Kind: kind, API: api, Namespaced: side.Namespaced, Up: side}, true
}

// alias turns a path into an identifier suffix: "core/v1" -> "corev1".
func alias(path string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, path)
}

// informerAccessorsOf walks client-go's SharedInformerFactory: group
// accessors, their version accessors and those's kind accessors, keyed
// "<group dir>/<version dir>/<Kind>".
func informerAccessorsOf(t *testing.T, pkgs map[string]*types.Package) map[string]*informerAccessors {
	t.Helper()
	const root = "k8s.io/client-go/informers"
	factory := pkgs[root].Scope().Lookup("SharedInformerFactory")
	if factory == nil {
		t.Fatalf("%s.SharedInformerFactory not found", root)
	}
	out := map[string]*informerAccessors{}
	for _, g := range interfaceResults(factory.Type(), root+"/") {
		for _, v := range interfaceResults(g.result, g.pkg+"/") {
			rel := strings.TrimPrefix(v.pkg, root+"/")
			iface := v.result.Underlying().(*types.Interface)
			for i := 0; i < iface.NumMethods(); i++ {
				m := iface.Method(i)
				res := m.Type().(*types.Signature).Results()
				if res.Len() != 1 {
					continue
				}
				named, ok := res.At(0).Type().(*types.Named)
				if !ok || named.Obj().Pkg().Path() != v.pkg {
					continue
				}
				// v0.37's accessors return TypedPodInformer, a superset
				// of PodInformer.
				if kind, ok := strings.CutSuffix(named.Obj().Name(), "Informer"); ok {
					out[rel+"/"+strings.TrimPrefix(kind, "Typed")] = &informerAccessors{Group: g.method, Version: v.method, Kind: m.Name()}
				}
			}
		}
	}
	if len(out) < 50 {
		t.Fatalf("found only %d informers under %s.SharedInformerFactory", len(out), root)
	}
	return out
}

type accessor struct {
	method string
	pkg    string
	result types.Type
}

// interfaceResults returns the methods of interface type typ that take
// nothing and return a package's Interface, for packages under prefix.
func interfaceResults(typ types.Type, prefix string) []accessor {
	iface, ok := typ.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []accessor
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		sig := m.Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
			continue
		}
		named, ok := sig.Results().At(0).Type().(*types.Named)
		if !ok || named.Obj().Name() != "Interface" || !strings.HasPrefix(named.Obj().Pkg().Path(), prefix) {
			continue
		}
		out = append(out, accessor{method: m.Name(), pkg: named.Obj().Pkg().Path(), result: named})
	}
	return out
}

// genericCase matches a case of client-go's ForResource
// (informers/generic.go): the resource and the accessors it returns.
var genericCase = regexp.MustCompile(`WithResource\("([^"]+)"\):\s*\n\s*return &genericInformer\{resource: resource\.GroupResource\(\), informer: f\.(\w+)\(\)\.(\w+)\(\)\.(\w+)\(\)\.Informer\(\)\}`)

// forResourceResources reads the resources client-go's ForResource
// serves, by the accessors of their informers.
func forResourceResources(t *testing.T, k *portedKube) map[informerAccessors]string {
	t.Helper()
	dir := strings.TrimSpace(run(t, k.dir, "go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/client-go"))
	src, err := os.ReadFile(filepath.Join(dir, "informers", "generic.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[informerAccessors]string{}
	for _, m := range genericCase.FindAllStringSubmatch(string(src), -1) {
		out[informerAccessors{Group: m[2], Version: m[3], Kind: m[4]}] = m[1]
	}
	if len(out) < 50 {
		t.Fatalf("found only %d resources in client-go's informers/generic.go", len(out))
	}
	return out
}

// renderBehaviourTest fills testdata/listerbehaviour's template with cases.
func renderBehaviourTest(t *testing.T, cases []listerCase) []byte {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", "listerbehaviour", "behaviour_test.go.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := template.New("behaviour").Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{} // alias -> path
	for _, c := range cases {
		imports[c.Up.API] = c.Up.apiPath
		if c.Up.Informer == nil {
			// Only these are named: the others' listers come from informers.
			imports[c.Up.Listers] = c.Up.listersPath
			imports[c.Ours.Listers] = c.Ours.listersPath
		}
	}
	var specs []importSpec
	for a, p := range imports {
		specs = append(specs, importSpec{Alias: a, Path: p})
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Path < specs[j].Path })
	var buf bytes.Buffer
	err = tmpl.Execute(&buf, map[string]any{
		"Module": kubegenModule, "Imports": specs, "Cases": cases, "ClientGoVersion": clientGoVersion,
	})
	if err != nil {
		t.Fatal(err)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		t.Fatalf("generated behaviour test does not parse: %v\n%s", err, buf.Bytes())
	}
	return src
}
