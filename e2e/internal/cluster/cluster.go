package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// quietControllerRuntimeLog silences envtest's logger, which otherwise
// prints a stack trace complaining that no logger was set.
var quietControllerRuntimeLog sync.Once

// Options configure a Cluster.
type Options struct {
	// Binaries are the executables to run; zero means EnsureBinaries.
	Binaries Binaries
	// DisableWatchCache starts kube-apiserver with --watch-cache=false so
	// that watches are served by etcd directly: a watch from a compacted
	// resourceVersion then fails with 410 Gone right after CompactEtcd,
	// whatever the size of the API server's watch cache.
	DisableWatchCache bool
	// FeatureGates are kube-apiserver feature gates to set, such as
	// "ShardedListAndWatch=true" (server-side sharded list and watch,
	// alpha in Kubernetes 1.36).
	FeatureGates []string
	// CRDDirectory holds the CRD manifests to install; empty means the
	// example project's examples/crd/config/crd.
	CRDDirectory string
	// StartTimeout bounds the start of each process (default 60 s).
	StartTimeout time.Duration
}

// Cluster is a running etcd and kube-apiserver on 127.0.0.1 with the CRDs
// installed. Its methods are safe for concurrent use; see the package
// documentation for the fault injections.
type Cluster struct {
	env     *envtest.Environment
	certDir string

	mu      sync.Mutex // serialises Stop and the API server restarts
	admin   *rest.Config
	stopped bool
}

// Start runs etcd and kube-apiserver on free loopback ports, provisions an
// admin user (group system:masters) and installs and waits for the CRDs to
// be established. On error everything started is stopped again.
func Start(ctx context.Context, opts Options) (_ *Cluster, retErr error) {
	if opts.Binaries == (Binaries{}) {
		b, err := EnsureBinaries(ctx)
		if err != nil {
			return nil, err
		}
		opts.Binaries = b
	}
	if opts.CRDDirectory == "" {
		root, err := RepoRoot()
		if err != nil {
			return nil, err
		}
		opts.CRDDirectory = filepath.Join(root, "examples", "crd", "config", "crd")
	}
	quietControllerRuntimeLog.Do(func() { ctrllog.SetLogger(logr.Discard()) })
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 60 * time.Second
	}

	// A certificate directory of our own (rather than one envtest
	// allocates and deletes on every API server stop) keeps the serving CA
	// across RestartAPIServer, so existing rest.Configs stay valid.
	certDir, err := os.MkdirTemp("", "informer-gen-e2e-apiserver-")
	if err != nil {
		return nil, err
	}
	apiServer := &envtest.APIServer{
		Path:    opts.Binaries.KubeAPIServer,
		CertDir: certDir,
	}
	if opts.DisableWatchCache {
		apiServer.Configure().Set("watch-cache", "false")
	}
	if len(opts.FeatureGates) > 0 {
		apiServer.Configure().Set("feature-gates", strings.Join(opts.FeatureGates, ","))
	}
	env := &envtest.Environment{
		ControlPlane: envtest.ControlPlane{
			APIServer: apiServer,
			Etcd:      &envtest.Etcd{Path: opts.Binaries.Etcd},
		},
		CRDDirectoryPaths:        []string{opts.CRDDirectory},
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: opts.StartTimeout,
		ControlPlaneStopTimeout:  30 * time.Second,
	}
	c := &Cluster{env: env, certDir: certDir}
	defer func() {
		if retErr != nil {
			retErr = errors.Join(retErr, c.Stop())
		}
	}()
	cfg, err := env.Start()
	if err != nil {
		return c, fmt.Errorf("cluster: start control plane: %w", err)
	}
	c.admin = rest.CopyConfig(cfg)
	return c, nil
}

// Stop stops kube-apiserver and etcd and deletes their data. It is safe to
// call more than once.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	c.stopped = true
	err := c.env.Stop()
	return errors.Join(err, os.RemoveAll(c.certDir))
}

// AdminConfig returns a new copy of the admin user's client configuration
// (member of system:masters, so every request is authorised).
func (c *Cluster) AdminConfig() *rest.Config {
	return rest.CopyConfig(c.admin)
}

// APIServerAddress returns the API server's host:port on 127.0.0.1. It
// does not change across RestartAPIServer.
func (c *Cluster) APIServerAddress() string {
	ss := c.env.ControlPlane.APIServer.SecureServing
	return net.JoinHostPort(ss.Address, ss.Port)
}

// EtcdURL returns the client URL of etcd.
func (c *Cluster) EtcdURL() string {
	return c.env.ControlPlane.Etcd.URL.String()
}

// KillAPIServer kills kube-apiserver with SIGKILL, as a crash would: open
// connections and watches break at once, nothing is drained. etcd keeps
// running with its data. Clients see connections refused until
// StartAPIServer.
func (c *Cluster) KillAPIServer() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return errors.New("cluster: stopped")
	}
	apiServer := c.env.ControlPlane.APIServer
	pid, err := findChild(apiServer.Path, "--cert-dir="+c.certDir)
	if err != nil {
		return err
	}
	if err := killAndReap(pid, 30*time.Second); err != nil {
		return err
	}
	// Let envtest see the exit and reset its process state; its Stop
	// returns at once for a process that has exited.
	for range 100 {
		if err := apiServer.Stop(); err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return apiServer.Stop()
}

// StartAPIServer starts kube-apiserver again on the same address with the
// same certificates after KillAPIServer, and waits until the CRD resources
// are served again.
func (c *Cluster) StartAPIServer(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return errors.New("cluster: stopped")
	}
	if err := c.env.ControlPlane.APIServer.Start(); err != nil {
		return fmt.Errorf("cluster: restart kube-apiserver: %w", err)
	}
	return c.waitServed(ctx)
}

// RestartAPIServer is KillAPIServer followed by StartAPIServer.
func (c *Cluster) RestartAPIServer(ctx context.Context) error {
	if err := c.KillAPIServer(); err != nil {
		return err
	}
	return c.StartAPIServer(ctx)
}

// waitServed polls until every installed CRD's resource can be listed.
func (c *Cluster) waitServed(ctx context.Context) error {
	dyn, err := dynamic.NewForConfig(c.admin)
	if err != nil {
		return err
	}
	var gvrs []schema.GroupVersionResource
	for _, crd := range c.env.CRDs {
		for _, v := range crd.Spec.Versions {
			if v.Served {
				gvrs = append(gvrs, schema.GroupVersionResource{Group: crd.Spec.Group, Version: v.Name, Resource: crd.Spec.Names.Plural})
			}
		}
	}
	return wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		for _, gvr := range gvrs {
			if _, err := dyn.Resource(gvr).List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
				return false, nil
			}
		}
		return true, nil
	})
}

// APIServerPID returns the process id of the running kube-apiserver (a
// child of this process), for reading its CPU time and memory from /proc.
func (c *Cluster) APIServerPID() (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return 0, errors.New("cluster: stopped")
	}
	return findChild(c.env.ControlPlane.APIServer.Path, "--cert-dir="+c.certDir)
}
