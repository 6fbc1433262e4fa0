package chaos

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/examples/crd/controller"
	"github.com/informer-gen/informer-gen/shard"
	"github.com/informer-gen/informer-gen/shard/ring"
)

// serverState is what the server holds in the soak's namespace.
type serverState struct {
	widgets, pods, configMaps map[string]string // key -> resourceVersion
	widgetHash                map[string]uint64 // key -> hash of its UID
	// stale lists the Widgets whose status is not yet DesiredStatus.
	stale []string
}

// checkpoint pauses the writer and waits until the replicas agree with
// the server (converged); the time from since is a convergence time. It
// then samples heap and goroutines. A bound exceeded is a violation; the
// error is ctx's.
func (s *soak) checkpoint(ctx context.Context, label string, since time.Time) error {
	s.writer.pause()
	defer s.writer.resume()
	deadline := since.Add(ConvergenceBound)
	var last string
	var agreed time.Time // when the last run of agreeing checks began
	for {
		last = s.divergence(ctx, since)
		switch {
		case last != "":
			agreed = time.Time{}
		case agreed.IsZero():
			agreed = time.Now()
		case time.Since(agreed) >= stableFor:
			// Agreeing since agreed, across two renewals: converged then.
			took := agreed.Sub(since)
			s.result.convergence(label, took)
			s.opts.Logf("%s: converged %v after the last fault", label, took.Round(time.Millisecond))
			s.sample(ctx, label)
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			s.result.violate("%s: not converged %v after the last fault: %s", label, ConvergenceBound, last)
			return ctx.Err()
		}
		if !sleepCtx(ctx, 200*time.Millisecond) {
			return ctx.Err()
		}
	}
}

// stableFor is how long the replicas must keep agreeing with the server
// for a checkpoint to count them converged: two renewals, so that a
// replica about to narrow (one paused past its Lease, say) cannot pass
// for a stable ring.
const stableFor = 2 * RenewPeriod

// divergence describes how the replicas differ from the server and the
// ring from its stable assignment (every Lease renewed after since and
// recording the member's assignment); "" when they agree.
func (s *soak) divergence(ctx context.Context, since time.Time) string {
	srv, err := s.server(ctx)
	if err != nil {
		return "server: " + err.Error()
	}
	if len(srv.stale) > 0 {
		return fmt.Sprintf("%d Widgets' status not yet written (%s)", len(srv.stale), srv.stale[0])
	}
	ids := make([]string, len(s.procs))
	for i, p := range s.procs {
		ids[i] = p.identity
	}
	assigned := ring.Assign(ids, ring.DefaultVirtualNodes)
	if d := s.leaseDivergence(ctx, since, assigned); d != "" {
		return d
	}
	holders := map[string][]string{}
	for _, p := range s.procs {
		if p.crashed() {
			return fmt.Sprintf("%s exited on its own (log %s)", p.identity, p.logPath)
		}
		rep, err := p.report(ctx, false)
		if err != nil {
			return err.Error()
		}
		if d := replicaDivergence(rep, srv, assigned[p.identity]); d != "" {
			return p.identity + ": " + d
		}
		for k := range rep.Caches[InformerWidgets] {
			holders[k] = append(holders[k], p.identity)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(srv.widgets)) {
		if len(holders[k]) != 1 {
			return fmt.Sprintf("Widget %s cached by %d replicas %v, want exactly one", k, len(holders[k]), holders[k])
		}
	}
	return ""
}

// replicaDivergence compares one replica's report with the server: the
// unsharded informers hold the server's objects, the sharded one the
// server's Widgets in the replica's ranges, which are its assignment.
func replicaDivergence(rep Report, srv serverState, assigned ring.Ranges) string {
	held, err := ring.ParseRanges(rep.Held)
	if err != nil {
		return err.Error()
	}
	if !held.Equal(assigned) {
		return fmt.Sprintf("holds %.3f of the ring, not its assignment (%.3f)", held.Fraction(), assigned.Fraction())
	}
	for name, want := range map[string]map[string]string{InformerPods: srv.pods, InformerConfigMaps: srv.configMaps,
		InformerWidgetMetadata: srv.widgets, InformerWidgetDynamic: srv.widgets} {
		if d := diffVersions(rep.Caches[name], want); d != "" {
			return name + ": " + d
		}
	}
	mine := map[string]string{}
	for k, rv := range srv.widgets {
		if held.Contains(srv.widgetHash[k]) {
			mine[k] = rv
		}
	}
	if d := diffVersions(rep.Caches[InformerWidgets], mine); d != "" {
		return InformerWidgets + ": " + d
	}
	return ""
}

// diffVersions names the first key whose resourceVersion differs.
func diffVersions(got, want map[string]string) string {
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[k]; !ok {
			return k + " missing"
		} else if g != want[k] {
			return fmt.Sprintf("%s at resourceVersion %s, server %s", k, g, want[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			return k + " cached, not on the server"
		}
	}
	return ""
}

// server lists the namespace's Widgets, Pods and ConfigMaps.
func (s *soak) server(ctx context.Context) (serverState, error) {
	st := serverState{widgets: map[string]string{}, pods: map[string]string{}, configMaps: map[string]string{}, widgetHash: map[string]uint64{}}
	ws, err := s.widgets.StableV1().Widgets(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return st, err
	}
	for i := range ws.Items {
		w := &ws.Items[i]
		k := namespace + "/" + w.Name
		st.widgets[k], st.widgetHash[k] = w.ResourceVersion, shard.Hash(string(w.UID))
		s.seen[string(w.UID)] = w.Name
		if w.Status != controller.DesiredStatus(w) {
			st.stale = append(st.stale, k)
		}
	}
	pods, err := s.kube.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return st, err
	}
	for _, p := range pods.Items {
		st.pods[namespace+"/"+p.Name] = p.ResourceVersion
	}
	cms, err := s.kube.CoreV1().ConfigMaps(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return st, err
	}
	for _, c := range cms.Items {
		st.configMaps[namespace+"/"+c.Name] = c.ResourceVersion
	}
	return st, nil
}

// leaseDivergence checks the ring's Leases: one per replica, renewed
// after since, recording the replica's assignment.
func (s *soak) leaseDivergence(ctx context.Context, since time.Time, assigned map[string]ring.Ranges) string {
	leases, err := s.kube.CoordinationV1().Leases(namespace).List(ctx, metav1.ListOptions{LabelSelector: ring.RingLabel + "=" + ringName})
	if err != nil {
		return "leases: " + err.Error()
	}
	if len(leases.Items) != len(assigned) {
		return fmt.Sprintf("%d Leases in the ring, want %d", len(leases.Items), len(assigned))
	}
	for _, l := range leases.Items {
		id := ""
		if l.Spec.HolderIdentity != nil {
			id = *l.Spec.HolderIdentity
		}
		want, ok := assigned[id]
		if !ok {
			return fmt.Sprintf("Lease %s held by %q, not a replica", l.Name, id)
		}
		if l.Spec.RenewTime == nil || !l.Spec.RenewTime.After(since) {
			return fmt.Sprintf("Lease %s not renewed since the last fault", l.Name)
		}
		if rs, err := ring.ParseRanges(l.Annotations[ring.RangesAnnotation]); err != nil || !rs.Equal(want) {
			return fmt.Sprintf("Lease %s does not record %s's assignment", l.Name, id)
		}
	}
	return ""
}
