package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
	"github.com/informer-gen/informer-gen/examples/crd/controller"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/internal/scratch"
)

// connTracker dials the API server and remembers every connection, so that
// a test can close them and check that no goroutine it started is left
// behind (idle HTTP connections each hold reader goroutines). A config
// with a Dial function also gets a transport of its own, not one shared
// through client-go's transport cache with the other tests.
type connTracker struct {
	mu     sync.Mutex
	conns  []net.Conn
	dialer net.Dialer
}

func (d *connTracker) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := d.dialer.DialContext(ctx, network, address)
	if err == nil {
		d.mu.Lock()
		d.conns = append(d.conns, c)
		d.mu.Unlock()
	}
	return c, err
}

// closeAll closes every connection dialled so far.
func (d *connTracker) closeAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		c.Close()
	}
	d.conns = nil
}

// widgetStatusLag lists the Widgets of the namespaces and describes those
// whose status is not the one the controller computes; n is their number
// and total the number of Widgets listed.
func widgetStatusLag(ctx context.Context, cs versioned.Interface, namespaces []string) (n, total int, example string, err error) {
	for _, ns := range namespaces {
		list, err := cs.StableV1().Widgets(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return 0, 0, "", err
		}
		total += len(list.Items)
		for i := range list.Items {
			w := &list.Items[i]
			if want := controller.DesiredStatus(w); w.Status != want {
				n++
				example = fmt.Sprintf("%s/%s (generation %d) has status %+v, want %+v", ns, w.Name, w.Generation, w.Status, want)
			}
		}
	}
	return n, total, example, nil
}

// waitStatusesConverged polls the server until every Widget of the
// namespaces has the controller's status and there are want of them.
func waitStatusesConverged(t *testing.T, cs versioned.Interface, namespaces []string, want int) {
	t.Helper()
	var last string
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, convergeTimeout, true, func(ctx context.Context) (bool, error) {
		n, total, example, err := widgetStatusLag(ctx, cs, namespaces)
		switch {
		case err != nil:
			last = "list: " + err.Error()
		case total != want:
			last = fmt.Sprintf("%d widgets on the server, want %d", total, want)
		case n > 0:
			last = fmt.Sprintf("%d of %d widgets not converged, e.g. %s", n, total, example)
		default:
			return true, nil
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("widget statuses did not converge within %v: %s", convergeTimeout, last)
	}
}

// The example controller, run in-process on the generated factory and our
// work queue against a real API server: every Widget of the watched
// namespaces gets its status through the status subresource, spec changes
// and status tampering are reconciled again, Widgets of other namespaces
// are left alone, and cancelling the context stops it without leaking a
// goroutine.
func TestControllerConvergesWidgetStatusesOnRealAPIServer(t *testing.T) {
	c := sharedCluster(t)
	admin := c.AdminConfig()
	watched := []string{"ctl-a", "ctl-b", "ctl-c", "ctl-d"}
	const outside = "ctl-outside"
	createNamespaces(t, admin, append([]string{outside}, watched...)...)
	t.Cleanup(func() {
		cs := clientset(t, c.AdminConfig())
		for _, ns := range append([]string{outside}, watched...) {
			if err := cs.StableV1().Widgets(ns).DeleteCollection(context.Background(), metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
				t.Logf("clean up widgets of %s: %v", ns, err)
			}
		}
	})

	// Goroutines from here on belong to this test and must be gone at the
	// end; every client below dials through conns.
	before := goleak.IgnoreCurrent()
	conns := &connTracker{}
	cfg := rest.CopyConfig(admin)
	cfg.Dial = conns.DialContext
	cfg.QPS, cfg.Burst = 200, 400
	cs := clientset(t, cfg)
	ctx := t.Context()

	const n = 300
	wl := workload{cs: cs, namespaces: watched, prefix: "ctl", workers: 8}
	if err := wl.create(ctx, 0, n, all); err != nil {
		t.Fatal(err)
	}
	out := workload{cs: cs, namespaces: []string{outside}, prefix: "ctl-out", workers: 2}
	if err := out.create(ctx, 0, 10, all); err != nil {
		t.Fatal(err)
	}

	informers := externalversions.NewSharedInformerFactoryWithOptions(cs, 0, externalversions.WithNamespaces(watched...))
	ctl := controller.New(cs, informers, controller.Options{})
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	informers.StartWithContext(runCtx)
	runErr := make(chan error, 1)
	go func() { runErr <- ctl.Run(runCtx, 4) }()

	waitStatusesConverged(t, cs, watched, n)
	t.Logf("after create: %+v", ctl.Stats())

	// Change the spec of every third Widget (new generation, new phase)
	// while update also overwrites the status of the even ones among
	// them: the controller must put its own status back.
	if err := wl.update(ctx, 0, n, nth(3, 0), -2); err != nil {
		t.Fatal(err)
	}
	waitStatusesConverged(t, cs, watched, n)
	stats := ctl.Stats()
	t.Logf("after update: %+v", stats)
	if stats.StatusUpdates < n+n/3 {
		t.Errorf("%d status updates, want at least %d (one per Widget, one per spec change)", stats.StatusUpdates, n+n/3)
	}
	if stats.Failures != 0 {
		t.Errorf("%d reconciles failed other than by conflict", stats.Failures)
	}

	lag, total, _, err := widgetStatusLag(ctx, cs, []string{outside})
	if err != nil {
		t.Fatal(err)
	}
	if lag != total {
		t.Errorf("%d of %d Widgets in the unwatched namespace got a status from a controller not watching it", total-lag, total)
	}

	cancel()
	select {
	case err := <-runErr:
		if err != nil {
			t.Errorf("Run returned %v after cancellation, want nil", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return within 30s of cancellation")
	}
	informers.Shutdown()
	conns.closeAll()
	goleak.VerifyNone(t, before)
}

// writeKubeconfig writes cfg (host and client certificates, as the harness
// provides them) as a kubeconfig file in dir and returns its path.
func writeKubeconfig(t *testing.T, cfg *rest.Config, dir string) string {
	t.Helper()
	server := cfg.Host
	if !strings.Contains(server, "://") {
		server = "https://" + server
	}
	kc := clientcmdapi.NewConfig()
	kc.Clusters["e2e"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["admin"] = &clientcmdapi.AuthInfo{ClientCertificateData: cfg.CertData, ClientKeyData: cfg.KeyData, Token: cfg.BearerToken}
	kc.Contexts["e2e"] = &clientcmdapi.Context{Cluster: "e2e", AuthInfo: "admin"}
	kc.CurrentContext = "e2e"
	path := filepath.Join(dir, "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// The controller command, built and run as a process with --kubeconfig and
// --namespaces: it reconciles the Widgets of its namespace and exits 0 on
// SIGTERM.
func TestControllerCommandReconcilesAndExitsCleanlyOnSIGTERM(t *testing.T) {
	c := sharedCluster(t)
	admin := c.AdminConfig()
	const ns = "ctl-cmd"
	createNamespaces(t, admin, ns)
	cs := clientset(t, admin)
	ctx := t.Context()
	wl := workload{cs: cs, namespaces: []string{ns}, prefix: "ctl-cmd", workers: 4}
	if err := wl.create(ctx, 0, 20, all); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cs.StableV1().Widgets(ns).DeleteCollection(context.Background(), metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
			t.Logf("clean up widgets of %s: %v", ns, err)
		}
	})

	root, err := cluster.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "controller")
	args := []string{"build", "-o", bin}
	if scratch.Race {
		// The controller runs under the race detector too (a race it
		// detects makes it exit with status 66, which fails the test), and
		// its dependencies are the race-enabled tests' compilations, found
		// in the build cache.
		args = append(args, "-race")
	}
	build := exec.CommandContext(ctx, "go", append(args, "./cmd/controller")...)
	build.Dir = filepath.Join(root, "examples", "crd")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/controller: %v\n%s", err, out)
	}

	var logs bytes.Buffer
	cmd := exec.Command(bin, "--kubeconfig="+writeKubeconfig(t, admin, dir), "--namespaces="+ns, "--workers=2", "-v=2")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			cmd.Process.Kill()
			<-exited
		}
	})

	waitStatusesConverged(t, cs, []string{ns}, 20)

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		stopped = true
		if err != nil {
			t.Fatalf("controller exited with %v after SIGTERM, want status 0; output:\n%s", err, logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("controller still running 30s after SIGTERM; output:\n%s", logs.String())
	}
	if out := logs.String(); !strings.Contains(out, "Controller shut down") {
		t.Errorf("output does not report the shutdown:\n%s", out)
	}
}
