package generators

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// clientsetPackage is the versioned clientset as far as informers use it:
// the accessor methods of its Interface, read from source.
type clientsetPackage struct {
	dir string
	// methods are the method names of Interface, with those of embedded
	// interfaces of the same package.
	methods map[string]bool
	// hasInterface is whether the package declares Interface at all.
	hasInterface bool
	// open is whether Interface embeds an interface of another package,
	// whose methods are not read: then a missing accessor is not reported.
	open bool
}

// readClientset reads the Interface of the clientset package p (as go list
// reported it from dir for importPath; nil when it did not), syntax only.
// An error says why the package cannot be used.
func readClientset(dir, importPath string, p *packages.Package) (*clientsetPackage, error) {
	if p == nil {
		return nil, errors.New("go list does not find the package")
	}
	if len(p.Errors) > 0 {
		if strings.Contains(p.Errors[0].Msg, "no required module provides") && requiredModuleProvides(dir, importPath) {
			// go list suggests go get, but the module is required: the
			// package path is wrong.
			return nil, errors.New("no such package in the modules go.mod requires; is the path misspelled?")
		}
		msgs := make([]string, len(p.Errors))
		for i, e := range p.Errors {
			msgs[i] = e.Msg
		}
		return nil, errors.New(strings.Join(msgs, "; "))
	}
	if len(p.GoFiles) == 0 {
		return nil, errors.New("the package has no Go files")
	}
	interfaces, err := readInterfaces(p.GoFiles)
	if err != nil {
		return nil, err
	}
	cs := &clientsetPackage{dir: parentDir(p.GoFiles[0]), methods: map[string]bool{}}
	it, ok := interfaces["Interface"]
	cs.hasInterface = ok
	if ok {
		cs.collect(it, interfaces, map[string]bool{})
	}
	return cs, nil
}

// readInterfaces returns the interface types the files declare, by name.
// Files that do not mention "interface" are not parsed.
func readInterfaces(files []string) (map[string]*ast.InterfaceType, error) {
	interfaces := map[string]*ast.InterfaceType{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if !bytes.Contains(src, []byte("interface")) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				addInterfaces(interfaces, gd)
			}
		}
	}
	return interfaces, nil
}

// addInterfaces adds the interface types of the type declaration gd.
func addInterfaces(interfaces map[string]*ast.InterfaceType, gd *ast.GenDecl) {
	for _, spec := range gd.Specs {
		ts := spec.(*ast.TypeSpec)
		if it, ok := ts.Type.(*ast.InterfaceType); ok {
			interfaces[ts.Name.Name] = it
		}
	}
}

// collect adds the methods of it to cs.methods, with those of the
// package's interfaces it embeds (each once: seen); an embedded interface
// of another package, or a constraint, makes cs open.
func (cs *clientsetPackage) collect(it *ast.InterfaceType, interfaces map[string]*ast.InterfaceType, seen map[string]bool) {
	for _, m := range it.Methods.List {
		if len(m.Names) > 0 {
			for _, n := range m.Names {
				cs.methods[n.Name] = true
			}
			continue
		}
		local, isLocal := m.Type.(*ast.Ident)
		if !isLocal || interfaces[local.Name] == nil {
			cs.open = true // another package's interface, or a constraint
			continue
		}
		if !seen[local.Name] {
			seen[local.Name] = true
			cs.collect(interfaces[local.Name], interfaces, seen)
		}
	}
}

// check reports what generated informers of m call that cs lacks.
func (cs *clientsetPackage) check(m *model) error {
	groups := m.InformerGroups()
	if !cs.hasInterface {
		return errors.New("the package declares no Interface type; pass the package client-gen generated (its clientset/versioned folder)")
	}
	if cs.open {
		return nil
	}
	var missing []string
	for _, g := range groups {
		for _, v := range g.Versions {
			if accessor := g.GoName + v.GoName; v.HasInformers() && !cs.methods[accessor] {
				missing = append(missing, fmt.Sprintf("%s(), which the informers of %s/%s call", accessor, g.NameOrCore(), v.Name))
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return fmt.Errorf("its Interface lacks %s; is it the clientset client-gen generated for these API packages (check --versioned-clientset-package, +groupName and +groupGoName)?", strings.Join(missing, ", and "))
}

// requiredModuleProvides reports whether a module of dir's build list has
// importPath's prefix as its path: then a package go list cannot find there
// is misspelled, not missing from go.mod.
func requiredModuleProvides(dir, importPath string) bool {
	missing, ok := unrequiredPatterns(dir, []string{importPath})
	return ok && len(missing) == 0
}
