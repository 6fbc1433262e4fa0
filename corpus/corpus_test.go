package corpus

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/informer-gen/informer-gen/internal/scratch"
)

// project is one third-party API module of the corpus: its API packages,
// its client-gen clientset and the informers and listers it generated with
// upstream k8s.io/code-generator. Paths are import paths inside module.
type project struct {
	name      string   // subtest name and output folder
	module    string   // module path, pinned in go.mod
	inputs    []string // API packages, as upstream passed them to informer-gen
	clientset string   // versioned clientset package
	informers string   // upstream informers package (…/externalversions)
	listers   string   // upstream listers root package
	skip      string   // when set, the reason the case is skipped
}

// corpus lists the projects. The inputs are the API packages each project
// generates informers for (the imports of its generic.go); versions are
// pinned in go.mod. Istio's client-go and Knative serving are left out for
// cost: their clientsets alone take minutes to compile on two cores.
var corpus = []project{
	{
		name:   "cert-manager",
		module: "github.com/cert-manager/cert-manager",
		inputs: []string{
			"github.com/cert-manager/cert-manager/pkg/apis/acme/v1",
			"github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1",
		},
		clientset: "github.com/cert-manager/cert-manager/pkg/client/clientset/versioned",
		informers: "github.com/cert-manager/cert-manager/pkg/client/informers/externalversions",
		listers:   "github.com/cert-manager/cert-manager/pkg/client/listers",
	},
	{
		// Several groups' versions under one apis/ folder, found through a
		// "..." pattern, and a second package name (volumesnapshot/v1 and
		// volumegroupsnapshot/v1) for the same version.
		name:      "external-snapshotter",
		module:    "github.com/kubernetes-csi/external-snapshotter/client/v8",
		inputs:    []string{"github.com/kubernetes-csi/external-snapshotter/client/v8/apis/..."},
		clientset: "github.com/kubernetes-csi/external-snapshotter/client/v8/clientset/versioned",
		informers: "github.com/kubernetes-csi/external-snapshotter/client/v8/informers/externalversions",
		listers:   "github.com/kubernetes-csi/external-snapshotter/client/v8/listers",
	},
	{
		// Types defined from another package's type (apis/v1beta1:
		// type ReferenceGrant v1.ReferenceGrant), groups whose Go names
		// come from the package path (apis, apisx) and +groupGoName.
		name:   "gateway-api",
		module: "sigs.k8s.io/gateway-api",
		inputs: []string{
			"sigs.k8s.io/gateway-api/apis/v1",
			"sigs.k8s.io/gateway-api/apis/v1alpha2",
			"sigs.k8s.io/gateway-api/apis/v1alpha3",
			"sigs.k8s.io/gateway-api/apis/v1beta1",
			"sigs.k8s.io/gateway-api/apisx/v1alpha1",
		},
		clientset: "sigs.k8s.io/gateway-api/pkg/client/clientset/versioned",
		informers: "sigs.k8s.io/gateway-api/pkg/client/informers/externalversions",
		listers:   "sigs.k8s.io/gateway-api/pkg/client/listers",
	},
	{
		// Cluster-scoped types, a clientset not named versioned.
		name:   "kube-aggregator",
		module: "k8s.io/kube-aggregator",
		inputs: []string{
			"k8s.io/kube-aggregator/pkg/apis/apiregistration/v1",
			"k8s.io/kube-aggregator/pkg/apis/apiregistration/v1beta1",
		},
		clientset: "k8s.io/kube-aggregator/pkg/client/clientset_generated/clientset",
		informers: "k8s.io/kube-aggregator/pkg/client/informers/externalversions",
		listers:   "k8s.io/kube-aggregator/pkg/client/listers",
	},
	{
		name:   "apiextensions-apiserver",
		module: "k8s.io/apiextensions-apiserver",
		inputs: []string{
			"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1",
			"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1",
		},
		clientset: "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset",
		informers: "k8s.io/apiextensions-apiserver/pkg/client/informers/externalversions",
		listers:   "k8s.io/apiextensions-apiserver/pkg/client/listers",
	},
}

// TestCorpusOutputBuildsVetsAndMatchesUpstreamInventory generates
// informers and listers for every project of the corpus with the
// informer-gen command, builds and vets them against the project's
// clientset, and requires the same informer and lister types, plurals and
// ForResource group-version-resources as the project's upstream-generated
// code.
func TestCorpusOutputBuildsVetsAndMatchesUpstreamInventory(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads third-party modules and compiles their clientsets")
	}
	dir := moduleDir(t)
	gen := informerGen(t, dir)
	// The output goes inside this module (its import path comes from
	// go.mod), in a folder whose leading underscore keeps it out of "./...".
	scratchDir, err := os.MkdirTemp(dir, "_scratch-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(scratchDir) })

	for _, p := range corpus {
		t.Run(p.name, func(t *testing.T) {
			if p.skip != "" {
				t.Skip(p.skip)
			}
			modDir := moduleSource(t, dir, p.module)
			out := filepath.Join(scratchDir, p.name)
			args := append([]string{"--output-dir", out, "--versioned-clientset-package", p.clientset}, p.inputs...)
			run(t, dir, gen, args...)

			rel := "./" + filepath.ToSlash(mustRel(t, dir, out)) + "/..."
			run(t, dir, "go", "build", rel)
			run(t, dir, "go", "vet", rel)

			ours, ourLayout := inventoryOf(t, filepath.Join(out, "informers", "externalversions"), filepath.Join(out, "listers"))
			upstream, upstreamLayout := inventoryOf(t, packageDir(modDir, p.module, p.informers), packageDir(modDir, p.module, p.listers))
			if len(upstream) == 0 {
				t.Fatalf("no upstream informers or listers found for %s", p.module)
			}
			t.Logf("%s: %d inventory lines upstream, %d in our output", p.name, len(upstream), len(ours))
			// Folder names may differ by design (the generator names a
			// group under apis/ by its +groupName, as kubebuilder's layout
			// wants); shown, not compared.
			for _, d := range folderRenames(upstreamLayout, ourLayout) {
				t.Logf("%s: %s", p.name, d)
			}
			for _, item := range upstream {
				if !slices.Contains(ours, item) {
					t.Errorf("%s: upstream has %s; our output lacks it", p.name, item)
				}
			}
			for _, item := range ours {
				if !slices.Contains(upstream, item) {
					t.Errorf("%s: our output has %s; upstream lacks it", p.name, item)
				}
			}
		})
	}
}

// moduleDir is the folder of this module.
func moduleDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// informerGen builds the informer-gen command of this repository (through
// go.mod's replace directive) into a temporary folder.
func informerGen(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "informer-gen")
	run(t, dir, "go", "build", "-o", bin, "github.com/informer-gen/informer-gen/cmd/informer-gen")
	return bin
}

var downloadOnce sync.Once

// moduleSource returns the module cache folder of module, downloading every
// module of the corpus first: on a new machine the module cache is empty,
// and `go list -m` reports no folder for a module not yet downloaded.
func moduleSource(t *testing.T, dir, module string) string {
	t.Helper()
	downloadOnce.Do(func() {
		args := []string{"mod", "download"}
		for _, p := range corpus {
			args = append(args, p.module)
		}
		run(t, dir, "go", args...)
	})
	src := strings.TrimSpace(run(t, dir, "go", "list", "-m", "-f", "{{.Dir}}", module))
	if src == "" {
		t.Fatalf("%s is not in the module cache after go mod download in %s", module, dir)
	}
	return src
}

// packageDir is the folder of package pkg of module, whose source is in
// modDir.
func packageDir(modDir, module, pkg string) string {
	return filepath.Join(modDir, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")))
}

func mustRel(t *testing.T, base, target string) string {
	t.Helper()
	rel, err := filepath.Rel(base, target)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// run runs name with args in dir and returns its standard output; the test
// fails with both outputs when the command fails. The go command's builds
// and vets get -race when this test binary has it (internal/scratch), so
// that client-go and apimachinery are the race-enabled tests'
// compilations.
func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	if name == "go" {
		args = scratch.GoArgs(args...)
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s%s", name, strings.Join(args, " "), dir, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// inventoryOf describes a tree of generated informers and listers by the
// API types it serves, as sorted lines:
//
//	informer API-PACKAGE PLURAL() TYPE   accessor of the version's Interface
//	lister API-PACKAGE NAME              lister interfaces (NAME ends in Lister)
//	ForResource API-PACKAGE RESOURCE f.G().V().P()
//
// API-PACKAGE is the import path of the API types a group-version folder
// serves (the one its files import among those ForResource switches on),
// so that the inventory does not depend on folder names. TYPE is the API
// type: an accessor returning TypedFooInformer (code-generator v0.37 and
// later) where FooInformer also exists counts as Foo, like one returning
// FooInformer. Other exported names (typed handler aliases and the like)
// are API surface, not inventory, and are not compared here. layout maps
// each group-version folder ("informers GROUP/VERSION", "listers
// GROUP/VERSION") to its API package.
func inventoryOf(t *testing.T, informersDir, listersDir string) (items []string, layout map[string]string) {
	t.Helper()
	cases, apiPackages := forResourceCases(t, filepath.Join(informersDir, "generic.go"))
	items = append(items, cases...)
	layout = map[string]string{}
	for _, root := range []struct{ dir, kind string }{{informersDir, "informer"}, {listersDir, "lister"}} {
		byDir := map[string][]*ast.File{}
		err := filepath.WalkDir(root.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			if b := filepath.Base(p); b == "zz_generated.compaction.go" || b == "zz_generated.decoders.go" || b == "zz_generated.protodecoders.go" {
				return nil // compaction walks, JSON and protobuf decoders: no API surface, and they import the API packages of the types they walk or decode
			}
			gv := filepath.ToSlash(mustRel(t, root.dir, filepath.Dir(p)))
			if strings.Count(gv, "/") != 1 || strings.HasPrefix(gv, "internalinterfaces/") {
				return nil // factory, generic informer, group interfaces
			}
			byDir[gv] = append(byDir[gv], parse(t, p))
			return nil
		})
		if err != nil {
			t.Fatalf("reading %s: %v", root.dir, err)
		}
		for gv, files := range byDir {
			types := map[string]ast.Expr{}
			api := ""
			for _, f := range files {
				for _, imp := range f.Imports {
					if p, _ := strconv.Unquote(imp.Path.Value); apiPackages[p] {
						api = p
					}
				}
				for _, decl := range f.Decls {
					if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
						for _, spec := range gd.Specs {
							ts := spec.(*ast.TypeSpec)
							types[ts.Name.Name] = ts.Type
						}
					}
				}
			}
			if api == "" {
				t.Errorf("%s/%s imports none of the API packages of ForResource", root.dir, gv)
				continue
			}
			layout[root.kind+"s "+gv] = api
			if root.kind == "lister" {
				for name := range types {
					if ast.IsExported(name) && strings.HasSuffix(name, "Lister") {
						items = append(items, fmt.Sprintf("lister %s %s", api, name))
					}
				}
				continue
			}
			iface, ok := types["Interface"].(*ast.InterfaceType)
			if !ok {
				t.Errorf("%s/%s: no version Interface", root.dir, gv)
				continue
			}
			for _, m := range iface.Methods.List {
				fn, ok := m.Type.(*ast.FuncType)
				if !ok || len(m.Names) != 1 || fn.Results == nil || len(fn.Results.List) != 1 {
					continue
				}
				typ := strings.TrimSuffix(exprString(fn.Results.List[0].Type), "Informer")
				if untyped, ok := strings.CutPrefix(typ, "Typed"); ok && types[untyped+"Informer"] != nil {
					typ = untyped
				}
				items = append(items, fmt.Sprintf("informer %s %s() %s", api, m.Names[0].Name, typ))
			}
		}
	}
	slices.Sort(items)
	return items, layout
}

// forResourceCases reads the switch of ForResource in a generic.go: each
// `case ALIAS.SchemeGroupVersion.WithResource("r"):` with the informer
// accessor chain it returns, and the set of API packages it switches on.
func forResourceCases(t *testing.T, file string) (items []string, apiPackages map[string]bool) {
	t.Helper()
	f := parse(t, file)
	imports := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imports[name] = p
	}
	apiPackages = map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		cc, ok := n.(*ast.CaseClause)
		if !ok {
			return true
		}
		for _, e := range cc.List {
			call, ok := e.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				continue
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "WithResource" {
				continue
			}
			gv, ok := sel.X.(*ast.SelectorExpr)
			if !ok {
				continue
			}
			alias, ok := gv.X.(*ast.Ident)
			if !ok {
				continue
			}
			resource, _ := strconv.Unquote(call.Args[0].(*ast.BasicLit).Value)
			apiPackages[imports[alias.Name]] = true
			items = append(items, fmt.Sprintf("ForResource %s %s %s", imports[alias.Name], resource, informerChain(cc.Body)))
		}
		return false
	})
	if len(items) == 0 {
		t.Errorf("%s: no ForResource case found", file)
	}
	return items, apiPackages
}

// folderRenames lists the group-version folders whose names differ
// between two layouts for the same API package.
func folderRenames(upstream, ours map[string]string) []string {
	byAPI := map[string]string{}
	for folder, api := range ours {
		byAPI[api+" "+strings.Fields(folder)[0]] = folder
	}
	var out []string
	for folder, api := range upstream {
		if o, ok := byAPI[api+" "+strings.Fields(folder)[0]]; ok && o != folder {
			out = append(out, fmt.Sprintf("upstream %s is our %s (%s)", folder, o, api))
		}
	}
	slices.Sort(out)
	return out
}

// informerChain finds, in a case body, the accessor chain ending in
// .Informer(): "f.Group().Version().Plural()".
func informerChain(body []ast.Stmt) string {
	chain := "<no informer>"
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Informer" {
				chain = exprString(sel.X)
				return false
			}
			return true
		})
	}
	return chain
}

func parse(t *testing.T, file string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// exprString prints the selector, call and identifier expressions the
// inventory needs (types, accessor chains).
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.CallExpr:
		return exprString(e.Fun) + "()"
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	default:
		return fmt.Sprintf("%T", e)
	}
}
