package chaos

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Kind is a kind of fault.
type Kind string

// The fault kinds of the soak.
const (
	// APIServerRestart: kube-apiserver is killed (SIGKILL) and started
	// again on the same etcd after Hold.
	APIServerRestart Kind = "apiserver-restart"
	// EtcdCompaction: etcd's history is compacted to its current revision.
	EtcdCompaction Kind = "etcd-compaction"
	// ConnectionCut: the replica's proxy to kube-apiserver cuts every
	// connection and refuses new ones for Hold.
	ConnectionCut Kind = "connection-cut"
	// ReplicaKill: the replica is killed (SIGKILL) and started again
	// after Hold.
	ReplicaKill Kind = "replica-kill"
	// ReplicaPause: the replica is stopped (SIGSTOP) for Hold, past its
	// Lease, then continued (SIGCONT).
	ReplicaPause Kind = "replica-pause"
	// SlowHandlers: every handler of the replica sleeps Delay per event
	// for Hold.
	SlowHandlers Kind = "slow-handlers"
)

// Kinds lists every fault kind, in the order figures are reported.
var Kinds = []Kind{APIServerRestart, EtcdCompaction, ConnectionCut, ReplicaKill, ReplicaPause, SlowHandlers}

// Fault is one fault of a round: its kind, target replica (index, for
// the per-replica kinds), when it starts after the round's start, how
// long it holds, and the handler delay of SlowHandlers.
type Fault struct {
	Kind    Kind
	Replica int
	Start   time.Duration
	Hold    time.Duration
	Delay   time.Duration
}

func (f Fault) String() string {
	s := fmt.Sprintf("%s at +%v", f.Kind, f.Start)
	switch f.Kind {
	case ConnectionCut, ReplicaKill, ReplicaPause:
		s += fmt.Sprintf(" on r%d for %v", f.Replica, f.Hold)
	case SlowHandlers:
		s += fmt.Sprintf(" on r%d for %v, %v per event", f.Replica, f.Hold, f.Delay)
	case APIServerRestart:
		s += fmt.Sprintf(", down %v", f.Hold)
	}
	return s
}

// Round is the faults injected together before a convergence check.
type Round []Fault

// planner draws rounds from a seeded source: 1 to maxTogether faults
// each, no two on one replica, at most one on the control plane; a pause
// holds past the Lease.
type planner struct {
	rnd           *rand.Rand
	replicas      int
	maxTogether   int
	leaseDuration time.Duration
}

func newPlanner(seed uint64, replicas, maxTogether int, leaseDuration time.Duration) *planner {
	return &planner{rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), replicas: replicas, maxTogether: maxTogether, leaseDuration: leaseDuration}
}

// next draws the next round.
func (p *planner) next() Round {
	n := 1 + p.rnd.IntN(p.maxTogether)
	var round Round
	used := map[int]bool{}
	controlPlane := false
	for range n {
		k := Kinds[p.rnd.IntN(len(Kinds))]
		f := Fault{Kind: k, Start: p.ms(2000)}
		switch k {
		case APIServerRestart, EtcdCompaction:
			if controlPlane {
				continue
			}
			controlPlane = true
			f.Hold = p.ms(3000)
		default:
			f.Replica = p.rnd.IntN(p.replicas)
			if used[f.Replica] {
				continue
			}
			used[f.Replica] = true
			f.Hold = p.hold(k)
			if k == SlowHandlers {
				f.Delay = 20*time.Millisecond + p.ms(200)
			}
		}
		round = append(round, f)
	}
	return round
}

func (p *planner) hold(k Kind) time.Duration {
	switch k {
	case ConnectionCut:
		return 500*time.Millisecond + p.ms(9500)
	case ReplicaKill:
		return p.ms(3000)
	case ReplicaPause:
		return p.leaseDuration + 1*time.Second + p.ms(3000)
	default:
		return 2*time.Second + p.ms(6000)
	}
}

// ms is a random duration below n milliseconds.
func (p *planner) ms(n int) time.Duration { return time.Duration(p.rnd.IntN(n)) * time.Millisecond }
