package apicompat_test

import (
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/informer-gen/informer-gen/apicompat"
)

// clientGoVersion is the client-go (and k8s.io/api) release whose generated
// informers and listers ours must stand in for.
const clientGoVersion = "v0.37.2"

// The migration guide's recipe (docs/migration.md, section recipeSection,
// step 2) generates k8s.io/api's informers and listers into the module
// example.com/me, under pkg/kube; the ported module is made exactly that way.
const (
	portedModule  = "example.com/me"
	kubegenModule = portedModule + "/pkg/kube"
)

// portedKube is a scratch module that followed the migration guide's recipe: a
// project written against client-go (portedController) whose lister
// expansions, k8s.io/api informers and listers and imports were ported by
// the guide's commands, run as written there. It is made once and shared
// by the tests that read it; TestMain removes it.
type portedKube struct {
	dir     string
	recipe  []string // the migration guide's commands, as run
	loadErr error
	pkgs    map[string]*types.Package // client-go's informers and listers and ours
}

var (
	portedOnce sync.Once
	ported     *portedKube
	portedErr  error
	portedRoot string // the directory holding the module, removed by TestMain
)

func TestMain(m *testing.M) {
	code := m.Run()
	if portedRoot != "" {
		// Module cache files are read-only; the scratch module has none,
		// but go build may have written read-only files into it.
		_ = filepath.Walk(portedRoot, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
		_ = os.RemoveAll(portedRoot)
	}
	os.Exit(code)
}

// portedKubernetes returns the shared ported module, making it on first
// use; a failure to make it fails every test that asks for it.
func portedKubernetes(t *testing.T) *portedKube {
	t.Helper()
	if testing.Short() {
		t.Skip("generates and builds informers and listers for all of k8s.io/api")
	}
	portedOnce.Do(func() { ported, portedErr = portKubernetes() })
	if portedErr != nil {
		t.Fatal(portedErr)
	}
	return ported
}

// packages type-checks client-go's informers and listers and ours in the
// ported module (once).
func (k *portedKube) packages(t *testing.T) map[string]*types.Package {
	t.Helper()
	if k.pkgs == nil && k.loadErr == nil {
		// The go command Load runs compiles what it type-checks, with the
		// flags of the module's other commands: go build and go test
		// reuse that work.
		k.pkgs, k.loadErr = apicompat.Load(k.dir,
			"k8s.io/client-go/informers/...", "k8s.io/client-go/listers/...", kubegenModule+"/...")
	}
	if k.loadErr != nil {
		t.Fatal(k.loadErr)
	}
	return k.pkgs
}

// portKubernetes writes a module requiring k8s.io/api and k8s.io/client-go
// at clientGoVersion and this repository (replaced by the working tree,
// with informer-gen as a tool), holding portedController, then runs the
// migration guide's recipe in it. It downloads what it needs, so it works from an
// empty module cache.
func portKubernetes() (*portedKube, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, err
	}
	recipe, err := guideRecipe(filepath.Join(root, "docs", "migration.md"))
	if err != nil {
		return nil, err
	}
	portedRoot, err = os.MkdirTemp("", "apicompat-ported-")
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(portedRoot, "me")
	goMod := fmt.Sprintf(`module %[1]s

go 1.26.0

require (
	github.com/informer-gen/informer-gen v0.0.0
	k8s.io/api %[2]s
	k8s.io/apimachinery %[2]s
	k8s.io/client-go %[2]s
)

tool github.com/informer-gen/informer-gen/cmd/informer-gen

replace github.com/informer-gen/informer-gen => %[3]s
`, portedModule, clientGoVersion, root)
	files := map[string]string{
		"go.mod":                       goMod,
		"pkg/controller/controller.go": portedController,
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	if _, err := command(dir, "go", "mod", "tidy"); err != nil {
		return nil, err
	}
	for i, script := range recipe {
		if _, err := command(dir, "bash", "-euo", "pipefail", "-c", script); err != nil {
			return nil, fmt.Errorf("docs/migration.md recipe, command block %d of %d:\n%s\n%w", i+1, len(recipe), script, err)
		}
	}
	return &portedKube{dir: dir, recipe: recipe}, nil
}

// portedController is code written against client-go's informers, listers
// and tools/cache, as a project has it before porting, using a lister
// expansion (GetPodStatefulSets) the migration guide's recipe copies from
// client-go.
const portedController = `// Package controller is a client-go user the migration guide's recipe ports.
package controller

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// Controller reads pods and the stateful sets that own them.
type Controller struct {
	Factory informers.SharedInformerFactory
	Sets    appslisters.StatefulSetLister
	Pods    corelisters.PodLister
	Synced  []cache.InformerSynced
}

// New returns a Controller whose informers come from client's factory.
func New(client kubernetes.Interface) *Controller {
	f := informers.NewSharedInformerFactory(client, 0)
	sets, pods := f.Apps().V1().StatefulSets(), f.Core().V1().Pods()
	pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			_, _ = cache.MetaNamespaceKeyFunc(obj)
		},
	})
	return &Controller{
		Factory: f,
		Sets:    sets.Lister(),
		Pods:    pods.Lister(),
		Synced:  []cache.InformerSynced{sets.Informer().HasSynced, pods.Informer().HasSynced},
	}
}

// SetsOf returns the stateful sets selecting the pods of namespace that
// match selector, through client-go's hand-written lister expansion.
func (c *Controller) SetsOf(namespace string, selector labels.Selector) ([]*appsv1.StatefulSet, error) {
	pods, err := c.Pods.Pods(namespace).List(selector)
	if err != nil {
		return nil, err
	}
	var out []*appsv1.StatefulSet
	for _, p := range pods {
		sets, err := c.Sets.GetPodStatefulSets(p)
		if err != nil {
			continue
		}
		out = append(out, sets...)
	}
	return out, nil
}

var _ *corev1.Pod
`

// command runs name with args in dir, outside any go.work, and returns its
// standard output; the error holds the command's output. The go command
// runs with the user's flags and no -race, even when this test binary has
// it (unlike the other scratch modules, internal/scratch): the race
// detector's instrumentation of our generated informers and listers of
// all of k8s.io/api costs more compilation than sharing client-go's
// race-enabled compilations saves (fresh-ci, 2026-11-28: apicompat's step
// took 1,134 CPU s with -race, against 870 without, on a loaded machine).
// The ported module's builds, vets and tests add -trimpath, as Load does:
// its generated packages (220 CPU s to compile) are made in a new
// temporary folder each run, and only without the folder in their
// compilation does the next run find them in the build cache.
func command(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%s %s in %s: %v\n%s%s", filepath.Base(name), strings.Join(args, " "), dir, err, out, stderr.String())
	}
	return string(out), nil
}

// run is command failing t.
func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, err := command(dir, name, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
