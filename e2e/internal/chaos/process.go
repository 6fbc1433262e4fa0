package chaos

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// debugClient talks to the replicas' debug endpoints without keeping
// connections (a paused or killed replica leaves none behind).
var debugClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// process is the driver's handle on one replica: its files and, while it
// runs, its process and debug address. Used by the driver's goroutine
// that owns the replica at the time (a fault or the soak loop), never by
// two at once.
type process struct {
	identity   string
	configPath string
	journal    string
	logPath    string

	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd.Wait returned
	addr   string
	starts int // incarnations started
}

// newProcess writes cfg's files under dir; the replica is not started.
func newProcess(dir string, cfg ReplicaConfig) (*process, error) {
	p := &process{identity: cfg.Identity,
		configPath: filepath.Join(dir, cfg.Identity+".json"),
		journal:    filepath.Join(dir, cfg.Identity+".journal"),
		logPath:    filepath.Join(dir, cfg.Identity+".log")}
	cfg.Journal = p.journal
	raw, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	return p, os.WriteFile(p.configPath, raw, 0o600)
}

// start runs a new incarnation of the replica (this executable again)
// and waits until its debug endpoint listens.
func (p *process) start(ctx context.Context) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	logf, err := os.OpenFile(p.logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	j, err := OpenJournal(p.journal)
	if err != nil {
		return err
	}
	j.Append(Entry{Kind: EntryStart})
	j.Close()
	before, _ := ReadJournal(p.journal)
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), ReplicaEnv+"="+p.configPath)
	cmd.Stdout, cmd.Stderr = logf, logf
	// The replica dies with the driver, whatever kills the driver.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("chaos: start replica %s: %w", p.identity, err)
	}
	p.cmd, p.exited, p.addr = cmd, make(chan struct{}), ""
	p.starts++
	go func(exited chan struct{}) { _ = cmd.Wait(); close(exited) }(p.exited)
	return p.waitListening(ctx, len(before))
}

// waitListening polls the journal for the listen entry written after the
// first skip entries.
func (p *process) waitListening(ctx context.Context, skip int) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		entries, err := ReadJournal(p.journal)
		if err != nil {
			return err
		}
		for _, e := range entries[min(skip, len(entries)):] {
			if e.Kind == EntryListen {
				p.addr = e.Addr
				return nil
			}
		}
		select {
		case <-p.exited:
			return fmt.Errorf("chaos: replica %s exited while starting; log %s", p.identity, p.logPath)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("chaos: replica %s did not listen within a minute; log %s", p.identity, p.logPath)
}

// crashed reports whether the running incarnation exited without being
// killed or terminated.
func (p *process) crashed() bool {
	if p.cmd == nil {
		return false
	}
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// signal sends sig to the running incarnation.
func (p *process) signal(sig syscall.Signal) error {
	if p.cmd == nil {
		return fmt.Errorf("chaos: replica %s is not running", p.identity)
	}
	return syscall.Kill(p.cmd.Process.Pid, sig)
}

// kill sends SIGKILL, waits for the exit and journals it.
func (p *process) kill() error {
	if err := p.signal(syscall.SIGKILL); err != nil {
		return err
	}
	return p.waitExit(10 * time.Second)
}

// terminate sends SIGCONT and SIGTERM (the replica leaves the ring) and
// kills it after grace.
func (p *process) terminate(grace time.Duration) error {
	if p.cmd == nil {
		return nil
	}
	_ = p.signal(syscall.SIGCONT)
	_ = p.signal(syscall.SIGTERM)
	if p.waitExit(grace) == nil {
		return nil
	}
	return errors.Join(fmt.Errorf("chaos: replica %s did not exit %v after SIGTERM", p.identity, grace), p.kill())
}

func (p *process) waitExit(timeout time.Duration) error {
	select {
	case <-p.exited:
	case <-time.After(timeout):
		return fmt.Errorf("chaos: replica %s still running %v after the signal", p.identity, timeout)
	}
	p.cmd = nil
	j, err := OpenJournal(p.journal)
	if err != nil {
		return err
	}
	defer j.Close()
	j.Append(Entry{Kind: EntryExit})
	return nil
}

// report fetches the replica's Report; gc asks for a garbage collection
// first.
func (p *process) report(ctx context.Context, gc bool) (Report, error) {
	url := "http://" + p.addr + "/report"
	if gc {
		url += "?gc=1"
	}
	var rep Report
	err := p.call(ctx, http.MethodGet, url, &rep)
	return rep, err
}

// setSlow makes every handler of the replica sleep delay per event.
func (p *process) setSlow(ctx context.Context, delay time.Duration) error {
	return p.call(ctx, http.MethodPost, "http://"+p.addr+"/slow?delay="+delay.String(), nil)
}

func (p *process) call(ctx context.Context, method, url string, out any) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return err
	}
	resp, err := debugClient.Do(req)
	if err != nil {
		return fmt.Errorf("chaos: replica %s: %w", p.identity, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("chaos: replica %s: %s %s: %s", p.identity, method, url, resp.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
