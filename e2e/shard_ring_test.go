package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
	"github.com/informer-gen/informer-gen/shard"
	"github.com/informer-gen/informer-gen/shard/ring"
)

// Lease timings of the ring tests: short, so that an expiry is seconds.
const (
	ringLeaseDuration = 6 * time.Second
	ringRenewDeadline = 4 * time.Second
	ringRenewPeriod   = time.Second
)

// A Lease ring of three replicas over Widgets, with ShardedListAndWatch
// on: the server sends each replica its ranges.
func TestShardRingWithTheFeatureGateOn(t *testing.T) {
	c := ownCluster(t, cluster.Options{FeatureGates: []string{"ShardedListAndWatch=true"}})
	shardRingSuite(t, c, true)
}

// The same with the gate off: the informers filter by the ring's ranges.
func TestShardRingWithTheFeatureGateOff(t *testing.T) {
	shardRingSuite(t, sharedCluster(t), false)
}

// ringMember is one replica: its informers (a Widget informer holding a
// shard.Dynamic's shard) and its ring member, whose Lease writes fail
// once cut is set.
type ringMember struct {
	id     string
	widget *replica
	member *ring.Replica
	cut    atomic.Bool
	stop   context.CancelFunc
	done   chan struct{}
}

func startRingMember(t *testing.T, cfg *rest.Config, ns, id string) *ringMember {
	t.Helper()
	m := &ringMember{id: id, done: make(chan struct{})}
	src := shard.NewDynamic(shard.Selector{})
	m.widget = newReplica(t, cfg, ns, src)
	leaseCfg := rest.CopyConfig(cfg)
	leaseCfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			if m.cut.Load() && req.Method != http.MethodGet {
				return nil, errors.New("cut off from the API server")
			}
			return rt.RoundTrip(req)
		})
	})
	member, err := ring.New(ring.Config{Client: kubernetes.NewForConfigOrDie(leaseCfg).CoordinationV1(), Namespace: ns,
		Ring: "widgets", Identity: id, Target: ring.DynamicTarget{Source: src, Key: shard.UID},
		LeaseDuration: ringLeaseDuration, RenewDeadline: ringRenewDeadline, RenewPeriod: ringRenewPeriod})
	if err != nil {
		t.Fatal(err)
	}
	m.member = member
	ctx, cancel := context.WithCancel(context.Background())
	m.stop = cancel
	go func() {
		defer close(m.done)
		if err := member.Run(ctx); err != nil && ctx.Err() == nil {
			t.Errorf("%s: Run: %v", id, err)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-m.done
	})
	return m
}

// ringCoverage is how the members' caches cover want: keys in none, keys
// in more than one.
func ringCoverage(members []*ringMember, want []string) (missing, doubled int) {
	count := map[string]int{}
	for _, m := range members {
		for _, k := range storeKeys(m.widget.informer) {
			count[k]++
		}
	}
	for _, k := range want {
		switch n := count[k]; {
		case n == 0:
			missing++
		case n > 1:
			doubled++
		}
	}
	return missing, doubled
}

// waitExactlyOnce waits until the members hold the ring's assignment over
// them and every key of want is in exactly one of their caches, none
// holding another, and returns how long it took.
func waitExactlyOnce(t *testing.T, what string, members []*ringMember, want []string) time.Duration {
	t.Helper()
	start := time.Now()
	err := wait.PollUntilContextTimeout(t.Context(), 50*time.Millisecond, 2*time.Minute, true, func(context.Context) (bool, error) {
		ids := make([]string, len(members))
		for i, m := range members {
			ids[i] = m.id
		}
		assigned := ring.Assign(ids, ring.DefaultVirtualNodes)
		total := 0
		for _, m := range members {
			if !m.member.Held().Equal(assigned[m.id]) {
				return false, nil
			}
			total += len(storeKeys(m.widget.informer))
		}
		missing, doubled := ringCoverage(members, want)
		return missing == 0 && doubled == 0 && total == len(want), nil
	})
	if err != nil {
		missing, doubled := ringCoverage(members, want)
		t.Fatalf("%s: %d objects in no cache, %d in two or more: %v", what, missing, doubled, err)
	}
	return time.Since(start)
}

func shardRingSuite(t *testing.T, c *cluster.Cluster, gateOn bool) {
	ns := fmt.Sprintf("shard-ring-gate-%t", gateOn)
	cfg := c.AdminConfig()
	createNamespaces(t, cfg, ns)
	cs := clientset(t, cfg)
	createWidgets(t, cs, ns, "w", shardedObjects)
	all := serverKeys(t, cs, ns, nil)

	members := []*ringMember{}
	for i := range 3 {
		members = append(members, startRingMember(t, cfg, ns, fmt.Sprintf("r%d", i)))
	}
	took := waitExactlyOnce(t, "three replicas", members, all)
	sizes := []string{}
	for _, m := range members {
		n := len(storeKeys(m.widget.informer))
		sizes = append(sizes, fmt.Sprint(n))
		if n < len(all)/5 || n > len(all)/2 {
			t.Errorf("%s holds %d of %d objects, want about a third", m.id, n, len(all))
		}
	}
	t.Logf("gate on %t: three replicas hold %s of %d objects, each exactly once, %v after start", gateOn, strings.Join(sizes, ", "), len(all), took.Round(time.Millisecond))

	// r0 stops renewing (its Lease writes fail; its informers run on).
	members[0].cut.Store(true)
	took = waitExactlyOnce(t, "after r0 was cut off", members[1:], all)
	if n := len(storeKeys(members[0].widget.informer)); n != 0 {
		t.Errorf("r0, cut off, still holds %d objects", n)
	}
	t.Logf("gate on %t: r0 cut off; r1 and r2 hold every object exactly once %v later (LeaseDuration %v)", gateOn, took.Round(time.Millisecond), ringLeaseDuration)

	// A new replica joins the two.
	members = append(members[1:], startRingMember(t, cfg, ns, "r3"))
	took = waitExactlyOnce(t, "after r3 joined", members, all)
	n := len(storeKeys(members[2].widget.informer))
	if n < len(all)/5 || n > len(all)/2 {
		t.Errorf("r3 took %d of %d objects, want about a third", n, len(all))
	}
	t.Logf("gate on %t: r3 joined and took %d of %d objects, %v after it started", gateOn, n, len(all), took.Round(time.Millisecond))
}
