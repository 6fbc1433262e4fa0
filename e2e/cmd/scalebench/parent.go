package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
)

// options configure a benchmark run.
type options struct {
	// Pods, Namespaces and Workers size and speed up the population.
	Pods, Namespaces, Workers int
	// Rounds of every variant; the order of the variants reverses from
	// one round to the next.
	Rounds int
	// Variants to run, in report order.
	Variants []string
	// Changes is the number of pods changed while an informer's
	// connection is cut, before the compaction.
	Changes int
	// Events is the number of pods changed while the child measures the
	// CPU time of watch events.
	Events int
	// Child is the command line (program and leading arguments) of a
	// child process; the variant's flags are appended.
	Child []string
	// Binaries of the control plane; zero means cluster.EnsureBinaries.
	Binaries cluster.Binaries
	// Sizes, when set, make the run a growth run (runGrowth): the
	// population grows through these pod counts, measured at each.
	Sizes []int
	// SkipWarmUp leaves out the unmeasured run of the first variant
	// before the rounds (a growth run's later sizes).
	SkipWarmUp bool
}

// measurement is one variant's run in one round: the child's numbers and
// the API server's during the initial sync.
type measurement struct {
	// Synced is the child's report after the initial sync, Done after the
	// relist.
	Synced childResult `json:"synced"`
	Done   childResult `json:"done"`
	// Events is the child's report on the watch events of EventCount
	// changed pods.
	Events     childResult `json:"events"`
	EventCount int         `json:"eventCount"`
	// APIServerCPUSeconds is kube-apiserver's user+system CPU time from
	// the child's start until it reported HasSynced.
	APIServerCPUSeconds float64 `json:"apiserverCPUSeconds"`
	// APIServerPeakRSS is kube-apiserver's peak RSS over the same
	// interval, measured as RSSMethod says.
	APIServerPeakRSS uint64 `json:"apiserverPeakRSS"`
	RSSMethod        string `json:"rssMethod"`
}

// results are every measurement of a run.
type results struct {
	// Resource is what the run wrote and watched: "pods", or
	// "httproutes" for the httproute-* variants.
	Resource string `json:",omitempty"`
	// LoadAverages are /proc/loadavg when the run began and ended.
	LoadAverages []string `json:",omitempty"`
	// Pods, Namespaces and Rounds are the size of the run.
	Pods, Namespaces, Rounds int
	// Changes is the number of pods changed before each compaction;
	// Events the number changed while the CPU per watch event is measured.
	Changes, Events int
	// Variants are the variants run, in report order.
	Variants []string
	// PerVariant holds one measurement per round, in round order.
	PerVariant map[string][]measurement
	// Managers are the field managers of a sample pod on the server.
	Managers []string
	// PopulateSeconds is the time the population took.
	PopulateSeconds float64
	// Commit is the repository's commit when the run began.
	Commit string
	// Started is when the run began; Duration how long it took in all.
	Started  time.Time
	Duration time.Duration
}

// run starts a cluster, creates the pods and measures every variant in
// every round.
func run(ctx context.Context, opts options) (*results, error) {
	start := time.Now()
	resource, err := resourceOf(opts.Variants)
	if err != nil {
		return nil, err
	}
	startLoad := loadAverage()
	c, cs, stop, err := startCluster(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer stop()
	pop, err := newWorkload(resource, fastAdmin(c), cs, opts)
	if err != nil {
		return nil, err
	}
	t := time.Now()
	if err := pop.create(ctx, opts.Workers); err != nil {
		return nil, err
	}
	res := newRunResults(resource, pop, opts, start, time.Since(t), startLoad)
	if res.Managers, err = managersOf(ctx, pop); err != nil {
		return nil, err
	}
	if err := measureRounds(ctx, c, cs, pop, opts, res); err != nil {
		return nil, err
	}
	res.Duration = time.Since(start)
	res.LoadAverages = append(res.LoadAverages, loadAverage())
	return res, nil
}

// clusterHandle is the control plane a run measures against.
type clusterHandle = *cluster.Cluster

// startCluster starts etcd and kube-apiserver for a run (watch cache
// off, sharded list and watch on) and returns them with an admin
// clientset fast enough to populate; stop shuts them down.
func startCluster(ctx context.Context, opts options) (c clusterHandle, cs kubernetes.Interface, stop func(), err error) {
	c, err = cluster.Start(ctx, cluster.Options{
		Binaries: opts.Binaries, DisableWatchCache: true,
		// Server-side selection for the ours-shard-N variants.
		FeatureGates: []string{shardedListAndWatchGate},
	})
	if err != nil {
		return nil, nil, nil, err
	}
	stop = func() {
		if err := c.Stop(); err != nil {
			log.Printf("stop cluster: %v", err)
		}
	}
	log.Printf("control plane up at %s (watch cache disabled, %s)", c.APIServerAddress(), shardedListAndWatchGate)
	if cs, err = kubernetes.NewForConfig(fastAdmin(c)); err != nil {
		stop()
		return nil, nil, nil, err
	}
	return c, cs, stop, nil
}

// fastAdmin is c's admin configuration with a client-side rate limit
// high enough for the population's writers.
func fastAdmin(c clusterHandle) *rest.Config {
	admin := c.AdminConfig()
	admin.QPS, admin.Burst = 5000, 10000
	return admin
}

// newRunResults are the empty results of a run of opts over pop, begun at
// start, whose population took populate.
func newRunResults(resource string, pop workload, opts options, start time.Time, populate time.Duration, startLoad string) *results {
	return &results{
		Resource: resource, Pods: opts.Pods, Namespaces: pop.namespaceCount(), Rounds: opts.Rounds, Changes: opts.Changes, Events: opts.Events, Variants: opts.Variants,
		PerVariant: map[string][]measurement{}, PopulateSeconds: populate.Seconds(), Started: start, Commit: gitCommit(),
		LoadAverages: []string{startLoad},
	}
}

// measureRounds runs every variant of opts in every round into res, and
// checks that each sharded one cached exactly its shard's pods.
func measureRounds(ctx context.Context, c *cluster.Cluster, cs kubernetes.Interface, pop workload, opts options, res *results) error {
	uids, err := podUIDs(ctx, cs)
	if err != nil {
		return err
	}
	pid, err := c.APIServerPID()
	if err != nil {
		return err
	}
	if err := settle(ctx, pid); err != nil {
		return err
	}
	if !opts.SkipWarmUp {
		if err := warmUp(ctx, c, cs, pid, pop, opts); err != nil {
			return err
		}
	}
	for r := range opts.Rounds {
		order := slices.Clone(opts.Variants)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, v := range order {
			log.Printf("round %d/%d: %s", r+1, opts.Rounds, v)
			m, err := runVariant(ctx, c, cs, pid, pop, opts, v, r)
			if err != nil {
				return fmt.Errorf("round %d, %s: %w", r+1, v, err)
			}
			if err := checkShardCount(v, m, uids); err != nil {
				return fmt.Errorf("round %d: %w", r+1, err)
			}
			if isFloor(v) {
				log.Printf("round %d/%d: %s received %d pods until the bookmark in %.2fs, kube-apiserver %.2f CPU-s",
					r+1, opts.Rounds, v, m.Synced.Objects, m.Synced.SyncSeconds, m.APIServerCPUSeconds)
				res.PerVariant[v] = append(res.PerVariant[v], m)
				continue
			}
			log.Printf("round %d/%d: %s synced in %.2fs, live heap %.1f MiB, %.0f µs CPU per watch event, relist peak %.1f MiB in %.2fs, kube-apiserver %.2f CPU-s, peak RSS %.0f MiB",
				r+1, opts.Rounds, v, m.Synced.SyncSeconds, beyondBaseline(m, m.Synced.LiveHeap)/(1<<20), cpuPerEvent(m),
				beyondBaseline(m, m.Done.RelistPeakHeap)/(1<<20), m.Done.RelistSeconds, m.APIServerCPUSeconds, mib(m.APIServerPeakRSS))
			res.PerVariant[v] = append(res.PerVariant[v], m)
		}
	}
	return nil
}

// managersOf lists the field managers of the population's first pod on
// the server, "manager (operation[, subresource])".
func managersOf(ctx context.Context, pop workload) ([]string, error) {
	ns, name := pop.ref(0)
	fields, err := pop.managedFields(ctx, ns, name)
	if err != nil {
		return nil, err
	}
	var managers []string
	for _, m := range fields {
		entry := m.Manager + " (" + string(m.Operation)
		if m.Subresource != "" {
			entry += ", " + m.Subresource
		}
		managers = append(managers, entry+")")
	}
	log.Printf("%s %s/%s: managedFields of %v", pop.resource(), ns, name, managers)
	return managers, nil
}

// runVariant runs one child for variant behind a proxy of its own and
// drives it through the initial sync and a relist forced by a compaction.
func runVariant(ctx context.Context, c *cluster.Cluster, cs kubernetes.Interface, pid int, pop workload, opts options, variant string, round int) (measurement, error) {
	proxy, kubeconfig, cleanup, err := proxiedKubeconfig(c)
	if err != nil {
		return measurement{}, err
	}
	defer cleanup()

	cmd, stdin, stdout, err := childCommand(ctx, opts, variant, kubeconfig)
	if err != nil {
		return measurement{}, err
	}
	in, err := shardFilter(variant)
	if err != nil {
		return measurement{}, err
	}
	waited := false
	defer func() {
		if !waited && cmd.Process != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	dec := json.NewDecoder(bufio.NewReader(stdout))
	m, err := startAndSync(pid, cmd, dec)
	if err != nil {
		return m, err
	}
	if isFloor(variant) {
		waited = true
		if err := cmd.Wait(); err != nil {
			return m, fmt.Errorf("child: %w", err)
		}
		return m, nil
	}
	if m.Events, m.EventCount, err = driveEvents(ctx, cs, pop, opts, in, stdin, dec, fmt.Sprintf("e%d-%s", round, variant)); err != nil {
		return m, err
	}
	if m.Done, err = driveRelist(ctx, c, cs, proxy, pop, opts, in, stdin, dec, fmt.Sprintf("r%d-%s", round, variant)); err != nil {
		return m, err
	}
	stdin.Close()
	waited = true
	if err := cmd.Wait(); err != nil {
		return m, fmt.Errorf("child: %w", err)
	}
	return m, nil
}

// startAndSync starts the child cmd and reads its initial sync from dec,
// with what kube-apiserver (process pid) spent serving it: its CPU time
// and peak RSS from just before the start until the child synced.
func startAndSync(pid int, cmd *exec.Cmd, dec *json.Decoder) (measurement, error) {
	var m measurement
	cpu0, err := processCPU(pid)
	if err != nil {
		return m, err
	}
	rss := startPeakRSS(pid)
	if err := cmd.Start(); err != nil {
		return m, err
	}
	if err := expect(dec, phaseSynced, &m.Synced); err != nil {
		return m, err
	}
	cpu1, err := processCPU(pid)
	if err != nil {
		return m, err
	}
	m.APIServerCPUSeconds = cpu1 - cpu0
	m.APIServerPeakRSS, m.RSSMethod, err = rss.end()
	return m, err
}

// proxiedKubeconfig starts a proxy to c's API server and writes a
// kubeconfig through it into a temporary directory; cleanup closes the
// proxy and removes the directory.
func proxiedKubeconfig(c *cluster.Cluster) (proxy *cluster.Proxy, kubeconfig string, cleanup func(), err error) {
	proxy, err = cluster.NewProxy(c.APIServerAddress())
	if err != nil {
		return nil, "", nil, err
	}
	dir, err := os.MkdirTemp("", "scalebench-")
	if err != nil {
		proxy.Close()
		return nil, "", nil, err
	}
	cleanup = func() { proxy.Close(); os.RemoveAll(dir) }
	if kubeconfig, err = writeKubeconfig(dir, proxy.Config(c.AdminConfig())); err != nil {
		cleanup()
		return nil, "", nil, err
	}
	return proxy, kubeconfig, cleanup, nil
}

// childCommand is the child process of variant, not started yet, with its
// standard input and output.
func childCommand(ctx context.Context, opts options, variant, kubeconfig string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, error) {
	args := append(slices.Clone(opts.Child[1:]), "-variant", variant, "-kubeconfig", kubeconfig)
	cmd := exec.CommandContext(ctx, opts.Child[0], args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	return cmd, stdin, stdout, nil
}

// driveRelist cuts the informer off, moves the history on and compacts
// it: the informer's next watch, from its last resourceVersion, gets 410
// Gone from etcd (no watch cache) and the informer relists once the proxy
// is restored. It returns the child's report on the relist.
func driveRelist(ctx context.Context, c *cluster.Cluster, cs kubernetes.Interface, proxy *cluster.Proxy, pop workload, opts options, in func(types.UID) bool, stdin io.Writer, dec *json.Decoder, value string) (childResult, error) {
	var res childResult
	proxy.Cut()
	_, key, rv, err := changeObjects(ctx, pop, opts.Changes, opts.Workers, value, in)
	if err != nil {
		return res, err
	}
	if _, err := c.CompactEtcd(ctx); err != nil {
		return res, err
	}
	if _, err := fmt.Fprintf(stdin, "%s %s %s\n", cmdRelist, key, rv); err != nil {
		return res, err
	}
	if err := expect(dec, phaseSampling, &res); err != nil {
		return res, err
	}
	proxy.Restore()
	err = expect(dec, phaseDone, &res)
	return res, err
}

// expect decodes the child's next message into into and checks its phase.
func expect(dec *json.Decoder, phase string, into *childResult) error {
	if err := dec.Decode(into); err != nil {
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("child exited before %q", phase)
		}
		return fmt.Errorf("child message: %w", err)
	}
	if into.Phase != phase {
		return fmt.Errorf("child sent phase %q, want %q", into.Phase, phase)
	}
	return nil
}

// driveEvents has the child measure the CPU time of watch events while
// opts.Events pods change (a new label value, one Modified event each) and
// returns its report and the number of changed pods in the child's shard
// (in; nil: all of them), the watch events it receives.
func driveEvents(ctx context.Context, cs kubernetes.Interface, pop workload, opts options, in func(types.UID) bool, stdin io.Writer, dec *json.Decoder, value string) (childResult, int, error) {
	var res childResult
	if _, err := fmt.Fprintf(stdin, "%s\n", cmdEvents); err != nil {
		return res, 0, err
	}
	if err := expect(dec, phaseCounting, &res); err != nil {
		return res, 0, err
	}
	n, key, rv, err := changeObjects(ctx, pop, opts.Events, opts.Workers, value, in)
	if err != nil {
		return res, 0, err
	}
	if _, err := fmt.Fprintf(stdin, "%s %s %s\n", cmdEventsDone, key, rv); err != nil {
		return res, 0, err
	}
	err = expect(dec, phaseEvents, &res)
	return res, n, err
}

// changePods gives n pods spread over the population a new label value,
// workers requests at once, and returns how many of them are in the
// shard in (nil: every pod is) and the key and resourceVersion of the pod
// in it with the highest resourceVersion written: an informer of the shard
// that caches that version has had every change of its shard before.
func changeObjects(ctx context.Context, pop workload, n, workers int, value string, in func(types.UID) bool) (changed int, key, rv string, err error) {
	n = max(1, min(n, pop.size()))
	patch := []byte(fmt.Sprintf(`{"metadata":{"labels":{"scalebench/changed":%q}}}`, value))
	tally := &changeTally{in: in}
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range max(1, workers) {
		wg.Go(func() {
			for k := int(next.Add(1) - 1); k < n && ctx.Err() == nil; k = int(next.Add(1) - 1) {
				ns, name := pop.ref(k * pop.size() / n)
				uid, rv, err := pop.label(ctx, ns, name, patch)
				if !tally.record(ns+"/"+name, uid, rv, err) {
					return
				}
			}
		})
	}
	wg.Wait()
	if tally.firstErr != nil {
		return 0, "", "", tally.firstErr
	}
	if err := ctx.Err(); err != nil {
		return 0, "", "", err
	}
	if tally.inShard == 0 {
		return 0, "", "", fmt.Errorf("none of the %d changed %s is in the informer's shard: change more (-changes, -events)", n, pop.resource())
	}
	return tally.inShard, tally.key, tally.rv, nil
}

// changeTally collects the outcome of changePods' patches.
type changeTally struct {
	// in is the shard's membership test, nil for every pod.
	in func(types.UID) bool
	mu sync.Mutex // guards the fields below
	// best is the highest resourceVersion written in the shard, of the
	// pod key at rv; inShard counts the changed pods in the shard.
	best     uint64
	key, rv  string
	inShard  int
	firstErr error
}

// record notes the patch of pod key, which returned p or err, and reports
// whether the writers should go on (no patch failed yet).
func (t *changeTally) record(key string, uid types.UID, rv string, err error) bool {
	var v uint64
	if err == nil {
		v, err = strconv.ParseUint(rv, 10, 64)
	}
	counted := err == nil && (t.in == nil || t.in(uid))
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case err != nil && t.firstErr == nil:
		t.firstErr = fmt.Errorf("patch %s: %w", key, err)
	case counted:
		t.inShard++
		if v >= t.best {
			t.best, t.key, t.rv = v, key, rv
		}
	}
	return t.firstErr == nil
}

// writeKubeconfig writes cfg (certificate or token authentication) as the
// kubeconfig file "kubeconfig" of dir and returns its path.
func writeKubeconfig(dir string, cfg *rest.Config) (string, error) {
	path := filepath.Join(dir, "kubeconfig")
	kc := clientcmdapi.NewConfig()
	kc.Clusters["scalebench"] = &clientcmdapi.Cluster{
		Server:                   cfg.Host,
		CertificateAuthorityData: cfg.CAData,
		CertificateAuthority:     cfg.CAFile,
		TLSServerName:            cfg.ServerName,
	}
	kc.AuthInfos["scalebench"] = &clientcmdapi.AuthInfo{
		ClientCertificateData: cfg.CertData,
		ClientCertificate:     cfg.CertFile,
		ClientKeyData:         cfg.KeyData,
		ClientKey:             cfg.KeyFile,
		Token:                 cfg.BearerToken,
		TokenFile:             cfg.BearerTokenFile,
	}
	kc.Contexts["scalebench"] = &clientcmdapi.Context{Cluster: "scalebench", AuthInfo: "scalebench"}
	kc.CurrentContext = "scalebench"
	return path, clientcmd.WriteToFile(*kc, path)
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
