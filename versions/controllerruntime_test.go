package versions

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// controllerRuntimeReleases are the controller-runtime releases
// controllerruntime.NewInformer is built with: the newest patch of each of
// the two newest minors, and the client-go their scratch module selects.
// The controllerruntime module requires client-go v0.37 (its k8s.io/api
// walks are generated from k8s.io/api v0.37), so a project on
// controller-runtime v0.24, released for client-go v0.36, moves to v0.37.
var controllerRuntimeReleases = []struct {
	version  string
	clientGo string
}{
	{version: "v0.24.1", clientGo: "v0.37.2"},
	{version: "v0.25.2", clientGo: "v0.37.2"},
}

// TestControllerRuntimeBuildsWithNewInformer builds, for each release of
// controllerRuntimeReleases, a scratch module whose manager takes
// controllerruntime.NewInformer as its cache's NewInformer (the one-option
// switch docs/controller-runtime.md gives), and checks the client-go the
// module selects.
func TestControllerRuntimeBuildsWithNewInformer(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads and compiles controller-runtime releases")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range controllerRuntimeReleases {
		t.Run("controller-runtime "+r.version, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "go.mod"), controllerRuntimeGoMod(root, r.version))
			writeFile(t, filepath.Join(dir, "main.go"), controllerRuntimeMain)
			run(t, dir, "go", "mod", "tidy")
			got := strings.TrimSpace(run(t, dir, "go", "list", "-m", "-f", "{{.Version}}", "k8s.io/client-go"))
			if got != r.clientGo {
				t.Errorf("controller-runtime %s with controllerruntime selects client-go %s, want %s", r.version, got, r.clientGo)
			}
			run(t, dir, "go", "vet", "-trimpath", "./...")
			run(t, dir, "go", "build", "-trimpath", "-o", filepath.Join(dir, "manager"), ".")
		})
	}
}

// controllerRuntimeGoMod is the go.mod of a scratch module on
// controller-runtime version v with this repository's modules.
func controllerRuntimeGoMod(root, v string) string {
	return fmt.Sprintf(`module example.com/manager

go 1.26.0

require (
	github.com/informer-gen/informer-gen v0.0.0
	github.com/informer-gen/informer-gen/controllerruntime v0.0.0
	sigs.k8s.io/controller-runtime %[2]s
)

replace (
	github.com/informer-gen/informer-gen => %[1]s
	github.com/informer-gen/informer-gen/controllerruntime => %[1]s/controllerruntime
)
`, root, v)
}

// controllerRuntimeMain is a manager switched to informer-gen's informer
// with one option.
const controllerRuntimeMain = `// Command manager is a controller-runtime manager on informer-gen's informer.
package main

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/informer-gen/informer-gen/controllerruntime"
)

var options = ctrl.Options{Cache: cache.Options{NewInformer: controllerruntime.NewInformer}}

func main() {
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return
	}
	_, _ = ctrl.NewManager(cfg, options)
}
`
