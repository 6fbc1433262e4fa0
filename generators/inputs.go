package generators

import "fmt"

// inputs is what a run reads: the declarations of the input packages and
// the clientset, or why the clientset cannot be used.
type inputs struct {
	decls        []*declarations
	clientset    *clientsetPackage
	clientsetErr error
}

// loadInputs loads the packages patterns match and the clientset of t,
// refuses an output layout that holds any of them, and resolves the
// ObjectMeta of their types. With lint rules, every input package is
// checked by them, in import path order, and the first that breaks one is
// the error. A clientset that cannot be read is not an
// error yet: only informers need it (see checkClientset).
func loadInputs(t *target, patterns []string) (*inputs, error) {
	pkgs, csPkg, err := loadPackages(t.dir, patterns, t.clientset, len(t.lintRules) > 0)
	if err != nil {
		return nil, err
	}
	in := &inputs{}
	in.clientset, in.clientsetErr = readClientset(t.dir, t.clientset, csPkg)
	var folders []inputFolder
	if in.clientsetErr == nil {
		folders = append(folders, inputFolder{"the clientset " + t.clientset, absDir(in.clientset.dir)})
	}
	for _, p := range pkgs {
		folders = append(folders, inputFolder{"input package " + p.Path, absDir(p.Dir)})
	}
	if err := checkLayout(t.out, folders); err != nil {
		return nil, err
	}
	in.decls = make([]*declarations, len(pkgs))
	for i, p := range pkgs {
		in.decls[i] = readDeclarations(p)
		if err := lintPackage(in.decls[i], t.lintRules); err != nil {
			return nil, err
		}
	}
	if err := newTypeResolver(t.dir, in.decls).resolveObjectMeta(in.decls); err != nil {
		return nil, err
	}
	return in, nil
}

// checkClientset reports, naming the flag, a clientset that cannot be read
// or lacks what the informers of m call. Only informers use the
// clientset: listers alone need none.
func (in *inputs) checkClientset(m *model, t *target) error {
	if t.out.informersDir == "" || len(m.InformerGroups()) == 0 {
		return nil
	}
	err := in.clientsetErr
	if err == nil {
		err = in.clientset.check(m)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", t.clientsetFlag, err)
	}
	return nil
}
