package apicompat

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"testing"
)

// check type-checks src as the package at path.
func check(t *testing.T, path, src string) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path+".go", "package p\n"+src, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return pkg
}

func TestComparePackages(t *testing.T) {
	m := Mapping{"up/p": "our/p"}
	tests := []struct {
		name         string
		up, ours     string
		missing      []string
		incompatible []string // Finding.Name values
		extra        []string
	}{
		{
			name: "identical declarations are compatible",
			up:   "type K string; func F(k K, xs ...int) (K, error) { return k, nil }",
			ours: "type K string; func F(k K, xs ...int) (K, error) { return k, nil }",
		},
		{
			name:    "names only upstream declares are missing; unexported ones are ignored",
			up:      "func F() {}; func g() {}",
			ours:    "",
			missing: []string{"F"},
		},
		{
			name:         "parameter types of shared names must match by name",
			up:           "type A int; type B int; func F(a A) {}",
			ours:         "type A int; type B int; func F(b B) {}",
			incompatible: []string{"F"},
		},
		{
			name:         "a context parameter upstream does not have is incompatible",
			up:           "func F(stop <-chan struct{}) bool { return true }",
			ours:         `import "context"; func F(ctx context.Context) bool { return true }`,
			incompatible: []string{"F"},
		},
		{
			name:         "variadic-ness must match",
			up:           "type O int; func F(k string, o ...O) {}",
			ours:         "type O int; func F(k string) {}",
			incompatible: []string{"F"},
		},
		{
			name:         "struct fields: extras are fine, missing and retyped fields are not",
			up:           "type S struct { A func(x any); B int; c int }",
			ours:         "type S struct { A func(x any, initial bool); C string }",
			incompatible: []string{"S.A", "S.B"},
		},
		{
			name:         "interface methods: missing ones are incompatible, extras are reported apart",
			up:           "type I interface { Run(stop <-chan struct{}); Name() string }",
			ours:         "type I interface { Run(stop <-chan struct{}); Extra() }",
			incompatible: []string{"I.Name"},
			extra:        []string{"I.Extra"},
		},
		{
			name:         "methods on T must not move to *T only",
			up:           "type S struct{}; func (S) M() {}; func (*S) P() {}",
			ours:         "type S struct{}; func (*S) M() {}; func (S) P() {}",
			incompatible: []string{"S.M"},
		},
		{
			name:         "generic types: same type parameters and constraints",
			up:           "type Object interface{ GetName() string }; type H[T Object] struct{ F func(T) }; type X[T any] map[string]T",
			ours:         "type Object interface{ GetName() string }; type H[T Object] struct{ F func(T) }; type X[T any, U any] map[string]T",
			incompatible: []string{"X"},
		},
		{
			name:         "generic constraint must be the mapped name",
			up:           "type Object interface{ GetName() string }; type H[T Object] struct{}",
			ours:         "type Object interface{ GetName() string }; type Other interface{ GetName() string }; type H[T Other] struct{}",
			incompatible: []string{"H"},
		},
		{
			name:         "instantiated generic types compare their type arguments",
			up:           "type D[T any] struct{ Obj T }; type H[T any] struct{ Delete func(D[T]) }",
			ours:         "type D[T any] struct{ Obj T }; type H[T any] struct{ Delete func(T, bool) }",
			incompatible: []string{"H.Delete"},
		},
		{
			name: "an alias of a func of an unexported type accepts any unexported type",
			up:   "type cfg struct{}; type Option = func(*cfg); func New(o ...Option) {}",
			ours: "type settings struct{}; type Option func(*settings); func New(o ...Option) {}",
		},
		{
			name:         "a typed constant may be untyped in ours when the default type agrees",
			up:           `const N string = "n"; type D string; const A D = "A"`,
			ours:         `const N = "n"; type D string; const A = "A"`,
			incompatible: []string{"A"},
		},
		{
			name:         "kind of declaration must match",
			up:           "func F() {}; type T int",
			ours:         "var F = func() {}; func T() {}",
			incompatible: []string{"F", "T"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ComparePackages(check(t, "up/p", tt.up), check(t, "our/p", tt.ours), m)
			names := func(fs []Finding) []string {
				var out []string
				for _, f := range fs {
					out = append(out, f.Name)
				}
				return out
			}
			if !reflect.DeepEqual(r.Missing, tt.missing) {
				t.Errorf("missing = %v, want %v", r.Missing, tt.missing)
			}
			if got := names(r.Incompatible); !reflect.DeepEqual(got, tt.incompatible) {
				t.Errorf("incompatible = %v, want %v\n%s", got, tt.incompatible, r)
			}
			if got := names(r.ExtraMethods); !reflect.DeepEqual(got, tt.extra) {
				t.Errorf("extra = %v, want %v", got, tt.extra)
			}
		})
	}
}

func TestMappingMapsLongestPrefixOnPathBoundaries(t *testing.T) {
	m := Mapping{
		"k8s.io/client-go/informers":         "ex.com/gen/informers",
		"k8s.io/client-go/informers/core/v1": "ex.com/special/core",
	}
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"k8s.io/client-go/informers", "ex.com/gen/informers", true},
		{"k8s.io/client-go/informers/apps/v1", "ex.com/gen/informers/apps/v1", true},
		{"k8s.io/client-go/informers/core/v1", "ex.com/special/core", true},
		{"k8s.io/client-go/informersx", "", false},
		{"k8s.io/api/core/v1", "", false},
	}
	for _, tt := range tests {
		got, ok := m.Map(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Map(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// mapImporter imports the packages it holds, else the default importer's.
type mapImporter map[string]*types.Package

func (m mapImporter) Import(path string) (*types.Package, error) {
	if p, ok := m[path]; ok {
		return p, nil
	}
	return importer.Default().Import(path)
}

// A type our package declares as an alias of a type of an internal package
// of ours (controller-runtime's front/internal pattern) matches
// upstream's type of that name; an internal type we do not alias does
// not.
func TestComparePackagesTakesOurAliasesOfInternalTypesAsOurs(t *testing.T) {
	m := Mapping{"up/p": "our/p"}
	fset := token.NewFileSet()
	parse := func(path, src string, imp types.Importer) *types.Package {
		t.Helper()
		f, err := parser.ParseFile(fset, path+".go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := (&types.Config{Importer: imp}).Check(path, fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return pkg
	}
	internal := parse("our/p/internal/e", "package e\ntype K func() int\ntype L int\n", importer.Default())
	imp := mapImporter{"our/p/internal/e": internal}
	up := check(t, "up/p", "type K func() int; type L int; func F(k K) {}; func G(l L) {}")
	ours := parse("our/p", "package p\nimport \"our/p/internal/e\"\ntype K = e.K\ntype L int\nfunc F(k K) {}\nfunc G(l e.L) {}\n", imp)
	r := ComparePackages(up, ours, m)
	var incompatible []string
	for _, f := range r.Incompatible {
		incompatible = append(incompatible, f.Name)
	}
	if want := []string{"G"}; !reflect.DeepEqual(incompatible, want) {
		t.Errorf("incompatible = %v, want %v (F's K is our alias of e.K; G's e.L has no alias of ours)\n%s", incompatible, want, r)
	}
}
