package chaos

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/examples/crd/controller"
	"github.com/informer-gen/informer-gen/shard"
	"github.com/informer-gen/informer-gen/shard/ring"
)

// ReplicaEnv names the environment variable that makes this executable a
// replica: its value is the path of the replica's ReplicaConfig (JSON).
const ReplicaEnv = "INFORMER_GEN_CHAOS_REPLICA"

// ReplicaConfig is what a replica process is told by the driver.
type ReplicaConfig struct {
	Identity   string `json:"identity"`
	Namespace  string `json:"namespace"`
	Kubeconfig string `json:"kubeconfig"`
	Journal    string `json:"journal"`
	Ring       string `json:"ring"`
	// Lease timings of the ring.
	LeaseDuration time.Duration `json:"leaseDuration"`
	RenewDeadline time.Duration `json:"renewDeadline"`
	RenewPeriod   time.Duration `json:"renewPeriod"`
	Workers       int           `json:"workers"`
}

// IsReplica reports whether this process was started as a replica.
func IsReplica() bool { return os.Getenv(ReplicaEnv) != "" }

// ReplicaMain runs the replica ReplicaEnv names until SIGTERM or SIGINT
// and returns the process exit code.
func ReplicaMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	raw, err := os.ReadFile(os.Getenv(ReplicaEnv))
	if err != nil {
		fmt.Fprintf(os.Stderr, "chaos replica: %v\n", err)
		return 1
	}
	var cfg ReplicaConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		fmt.Fprintf(os.Stderr, "chaos replica: %s: %v\n", os.Getenv(ReplicaEnv), err)
		return 1
	}
	if err := runReplica(ctx, cfg); err != nil {
		fmt.Fprintf(os.Stderr, "chaos replica %s: %v\n", cfg.Identity, err)
		return 1
	}
	return 0
}

// runReplica runs the informers, the controller, the ring member and the
// debug endpoint of cfg until ctx is done.
func runReplica(ctx context.Context, cfg ReplicaConfig) error {
	journal, err := OpenJournal(cfg.Journal)
	if err != nil {
		return err
	}
	defer journal.Close()
	rc, err := clientcmd.BuildConfigFromFlags("", cfg.Kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", cfg.Kubeconfig, err)
	}
	rc.QPS, rc.Burst = 200, 400
	src := shard.NewDynamic(shard.Selector{}) // nothing until the ring assigns
	infs, err := newInformers(rc, cfg.Namespace, src, journal)
	if err != nil {
		return err
	}
	target := &journaledTarget{next: ring.DynamicTarget{Source: src, Key: shard.UID}, journal: journal}
	member, err := ring.New(ring.Config{Client: kubernetes.NewForConfigOrDie(rest.CopyConfig(rc)).CoordinationV1(),
		Namespace: cfg.Namespace, Ring: cfg.Ring, Identity: cfg.Identity, Target: target,
		LeaseDuration: cfg.LeaseDuration, RenewDeadline: cfg.RenewDeadline, RenewPeriod: cfg.RenewPeriod})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: newDebugHandler(cfg.Identity, infs, target), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	journal.Append(Entry{Kind: EntryListen, Addr: ln.Addr().String()})

	logger := klog.Background().WithName(cfg.Identity)
	ctx = klog.NewContext(ctx, logger)
	ctl := controller.New(infs.widgetClient, infs.sharded, controller.Options{Name: cfg.Identity})
	infs.start(ctx)
	defer infs.shutdown()
	ringDone := make(chan error, 1)
	go func() { ringDone <- member.Run(ctx) }()
	err = ctl.Run(ctx, max(cfg.Workers, 1))
	if ringErr := <-ringDone; err == nil {
		err = ringErr
	}
	return err
}
