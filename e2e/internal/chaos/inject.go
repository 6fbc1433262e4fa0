package chaos

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"time"
)

// window is a fault's span: from its start until the control plane or
// replica was whole again.
type window struct {
	Kind     Kind
	Replica  int // -1 for the control plane
	From, To time.Time
}

// faultLog records the faults injected. Safe for concurrent use.
type faultLog struct {
	mu      sync.Mutex // guards windows
	windows []window
}

func (l *faultLog) add(w window) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.windows = append(l.windows, w)
}

func (l *faultLog) all() []window {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]window(nil), l.windows...)
}

// runRound injects the faults of r together and returns when every one
// has ended (the control plane and every replica are back).
func (s *soak) runRound(ctx context.Context, r Round) error {
	errs := make([]error, len(r))
	var wg sync.WaitGroup
	for i, f := range r {
		wg.Go(func() {
			if !sleepCtx(ctx, f.Start) {
				return
			}
			errs[i] = s.inject(ctx, f)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("fault %v: %w", r[i], err)
		}
	}
	return ctx.Err()
}

// inject carries out f and waits until it is over.
func (s *soak) inject(ctx context.Context, f Fault) error {
	w := window{Kind: f.Kind, Replica: f.Replica, From: time.Now()}
	defer func() { w.To = time.Now(); s.faults.add(w) }()
	switch f.Kind {
	case APIServerRestart:
		w.Replica = -1
		if err := s.cluster.KillAPIServer(); err != nil {
			return err
		}
		sleepCtx(ctx, f.Hold)
		return s.cluster.StartAPIServer(ctx)
	case EtcdCompaction:
		w.Replica = -1
		_, err := s.cluster.CompactEtcd(ctx)
		return err
	case ConnectionCut:
		s.proxies[f.Replica].Cut()
		sleepCtx(ctx, f.Hold)
		s.proxies[f.Replica].Restore()
		return nil
	case ReplicaKill:
		p := s.procs[f.Replica]
		if err := p.kill(); err != nil {
			return err
		}
		sleepCtx(ctx, f.Hold)
		return p.start(ctx)
	case ReplicaPause:
		p := s.procs[f.Replica]
		if err := p.signal(syscall.SIGSTOP); err != nil {
			return err
		}
		sleepCtx(ctx, f.Hold)
		return p.signal(syscall.SIGCONT)
	case SlowHandlers:
		p := s.procs[f.Replica]
		if err := p.setSlow(ctx, f.Delay); err != nil {
			return err
		}
		sleepCtx(ctx, f.Hold)
		return p.setSlow(context.WithoutCancel(ctx), 0)
	}
	return fmt.Errorf("unknown fault kind %q", f.Kind)
}

// sleepCtx sleeps d or until ctx is done; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
