package chaos

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
)

// Options configure a soak.
type Options struct {
	// Cluster is a running control plane with ShardedListAndWatch on.
	Cluster *cluster.Cluster
	// Seed draws the fault schedule and the writer's writes.
	Seed uint64
	// Duration is how long faults are injected (the final convergence
	// check comes after).
	Duration time.Duration
	// Dir holds the replicas' files (configuration, journal, log).
	Dir string
	// MaxTogether is the most faults of one round (default 2).
	MaxTogether int
	// Population is how many Widgets, Pods and ConfigMaps of each the
	// writer keeps about (default 40); Rate its writes per second
	// (default 20).
	Population int
	Rate       float64
	// Logf receives progress lines (default: discarded).
	Logf func(format string, args ...any)
}

// Lease timings of the soak's ring: short, so an expiry is seconds.
const (
	LeaseDuration = 6 * time.Second
	RenewDeadline = 4 * time.Second
	RenewPeriod   = time.Second
	// SyncBound is "one sync" of the bounds: a claim recorded and seen
	// plus the new owner's relist.
	SyncBound = 5 * time.Second
	// ConvergenceBound is how long after a round's last fault ended the
	// caches, the ring and the statuses must agree with the server.
	ConvergenceBound = LeaseDuration + 2*SyncBound + 20*time.Second
)

const (
	namespace = "chaos"
	ringName  = "chaos"
	replicas  = 3
)

// soak is one run's state, owned by Run's goroutine except where said.
type soak struct {
	opts    Options
	cluster *cluster.Cluster
	widgets versioned.Interface
	kube    kubernetes.Interface
	proxies []*cluster.Proxy
	procs   []*process
	faults  faultLog
	writer  *writer
	result  *Result
	samples samples
	seen    map[string]string // Widget UID -> name, from every server list
}

// Run runs a soak and returns its figures and violations; an error is a
// failure to run it (not an invariant violated).
func Run(ctx context.Context, opts Options) (_ *Result, retErr error) {
	if opts.MaxTogether == 0 {
		opts.MaxTogether = 2
	}
	if opts.Population == 0 {
		opts.Population = 40
	}
	if opts.Rate == 0 {
		opts.Rate = 20
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	admin := opts.Cluster.AdminConfig()
	admin.QPS, admin.Burst = 500, 1000
	s := &soak{opts: opts, cluster: opts.Cluster, widgets: versioned.NewForConfigOrDie(admin),
		kube: kubernetes.NewForConfigOrDie(admin), result: newResult(opts.Seed), seen: map[string]string{}}
	defer func() { retErr = errors.Join(retErr, s.stop()) }()
	if err := s.setUp(ctx, admin); err != nil {
		return nil, err
	}
	start := time.Now()
	if err := s.checkpoint(ctx, "start", start); err != nil {
		return s.result, err
	}
	runCtx, stopWriter := context.WithCancel(ctx)
	defer stopWriter()
	writerDone := make(chan struct{})
	go func() { defer close(writerDone); s.writer.run(runCtx) }()
	err := s.rounds(ctx, start)
	stopWriter()
	<-writerDone
	if err != nil {
		return s.result, err
	}
	if err := s.checkpoint(ctx, "end", time.Now()); err != nil {
		return s.result, err
	}
	s.result.Writes, s.result.WriteErrors = s.writer.writes.Load(), s.writer.errors.Load()
	s.result.Elapsed = time.Since(start)
	return s.result, s.analyse(start)
}

// rounds runs rounds of faults until the duration is over.
func (s *soak) rounds(ctx context.Context, start time.Time) error {
	plan := newPlanner(s.opts.Seed, replicas, s.opts.MaxTogether, LeaseDuration)
	for n := 1; time.Since(start) < s.opts.Duration; n++ {
		churn := 2*time.Second + time.Duration(plan.rnd.IntN(3000))*time.Millisecond
		if !sleepCtx(ctx, churn) {
			return ctx.Err()
		}
		round := plan.next()
		names := make([]string, len(round))
		for i, f := range round {
			names[i] = f.String()
			s.result.Faults[f.Kind]++
		}
		s.opts.Logf("round %d: %s", n, strings.Join(names, "; "))
		if err := s.runRound(ctx, round); err != nil {
			return fmt.Errorf("round %d: %w", n, err)
		}
		if err := s.checkpoint(ctx, fmt.Sprintf("round %d", n), time.Now()); err != nil {
			return err
		}
		s.result.Rounds = n
	}
	return nil
}

// setUp creates the namespace and the first objects, and starts the
// replicas, each behind its own proxy.
func (s *soak) setUp(ctx context.Context, admin *rest.Config) error {
	if _, err := s.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	s.writer = &writer{widgets: s.widgets, kube: s.kube, ns: namespace, population: s.opts.Population, rate: s.opts.Rate,
		rnd: rand.New(rand.NewPCG(s.opts.Seed, 1))}
	for i := range s.opts.Population {
		err := errors.Join(s.writer.widget(ctx, fmt.Sprintf("w-%03d", i), 1),
			s.writer.pod(ctx, fmt.Sprintf("p-%03d", i), 1), s.writer.configMap(ctx, fmt.Sprintf("c-%03d", i), 1))
		if err != nil {
			return err
		}
	}
	for i := range replicas {
		p, err := cluster.NewProxy(s.cluster.APIServerAddress())
		if err != nil {
			return err
		}
		s.proxies = append(s.proxies, p)
		id := fmt.Sprintf("r%d", i)
		kubeconfig := filepath.Join(s.opts.Dir, id+".kubeconfig")
		if err := writeKubeconfig(p.Config(admin), kubeconfig); err != nil {
			return err
		}
		proc, err := newProcess(s.opts.Dir, ReplicaConfig{Identity: id, Namespace: namespace, Kubeconfig: kubeconfig, Ring: ringName,
			LeaseDuration: LeaseDuration, RenewDeadline: RenewDeadline, RenewPeriod: RenewPeriod, Workers: 2})
		if err != nil {
			return err
		}
		s.procs = append(s.procs, proc)
		if err := proc.start(ctx); err != nil {
			return err
		}
	}
	return nil
}

// stop ends the replicas (they leave the ring) and closes the proxies.
func (s *soak) stop() error {
	var errs []error
	for _, p := range s.procs {
		errs = append(errs, p.terminate(LeaseDuration+10*time.Second))
	}
	for _, p := range s.proxies {
		errs = append(errs, p.Close())
	}
	return errors.Join(errs...)
}

// writeKubeconfig writes cfg (host, CA and client certificate) to path.
func writeKubeconfig(cfg *rest.Config, path string) error {
	kc := clientcmdapi.NewConfig()
	kc.Clusters["chaos"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["admin"] = &clientcmdapi.AuthInfo{ClientCertificateData: cfg.CertData, ClientKeyData: cfg.KeyData, Token: cfg.BearerToken}
	kc.Contexts["chaos"] = &clientcmdapi.Context{Cluster: "chaos", AuthInfo: "admin"}
	kc.CurrentContext = "chaos"
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return clientcmd.WriteToFile(*kc, path)
}
