package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/e2e/internal/chaos"
	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
)

// The chaos soak starts its replicas as this test binary again, with
// chaos.ReplicaEnv set: they run the replica, never the tests.
func init() {
	if chaos.IsReplica() {
		os.Exit(chaos.ReplicaMain())
	}
}

var (
	chaosDuration = flag.Duration("chaos.duration", 2*time.Minute, "how long TestChaosSoak injects faults (e2e/cmd/chaos runs the long form)")
	chaosSeed     = flag.Uint64("chaos.seed", 0, "seed of TestChaosSoak's fault schedule and writes; 0 draws one from the clock (printed, to replay a failure)")
)

// The 2-minute form of the chaos soak (e2e/internal/chaos): three
// replicas of the example controller as processes on a Lease ring with
// ShardedListAndWatch on, churn, and rounds of one or two faults drawn
// from the seed (kube-apiserver killed and restarted, etcd compacted, a
// replica's connections cut, a replica killed and restarted or paused
// past its Lease, slow handlers). Every invariant violation names the
// seed; -chaos.seed replays the schedule.
func TestChaosSoak(t *testing.T) {
	c := ownCluster(t, cluster.Options{FeatureGates: []string{"ShardedListAndWatch=true"}})
	seed := *chaosSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (replay: go test -run TestChaosSoak -chaos.seed=%d)", seed, seed)
	dir := t.TempDir()
	res, err := chaos.Run(t.Context(), chaos.Options{Cluster: c, Seed: seed, Duration: *chaosDuration, Dir: dir, Logf: t.Logf})
	if res != nil {
		t.Log(res.Summary())
	}
	if err != nil {
		t.Errorf("seed %d: %v", seed, err)
	}
	if res != nil {
		for _, v := range res.Violations {
			t.Error(v)
		}
	}
	if t.Failed() {
		logTails(t, dir)
	}
}

// logTails logs the last lines of every replica's log.
func logTails(t *testing.T, dir string) {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, path := range logs {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
		t.Logf("%s, last lines:\n%s", filepath.Base(path), strings.Join(lines[max(0, len(lines)-30):], "\n"))
	}
}
