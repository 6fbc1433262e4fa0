package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat
// (100 on every Linux architecture Go supports).
const clockTicks = 100

// processCPU returns the user plus system CPU seconds pid has used.
func processCPU(pid int) (float64, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the parenthesised command name start at field 3
	// (state); utime and stime are fields 14 and 15.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("malformed /proc stat")
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("malformed /proc stat")
	}
	utime, err := strconv.ParseUint(f[11], 10, 64)
	if err != nil {
		return 0, err
	}
	stime, err := strconv.ParseUint(f[12], 10, 64)
	if err != nil {
		return 0, err
	}
	return float64(utime+stime) / clockTicks, nil
}

// statusBytes returns a "kB" field (VmHWM, VmRSS) of /proc/<pid>/status in
// bytes.
func statusBytes(pid int, field string) (uint64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == field+":" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// peakRSS measures the peak resident set of a process over an interval:
// with clear_refs (writing 5 resets VmHWM to the current RSS) when the
// kernel lets us, else by sampling VmRSS every 50 ms.
type peakRSS struct {
	pid     int
	hwm     bool // VmHWM was reset; read it at the end
	stop    chan struct{}
	done    sync.WaitGroup
	sampled atomic.Uint64
}

// startPeakRSS starts measuring pid's peak RSS.
func startPeakRSS(pid int) *peakRSS {
	p := &peakRSS{pid: pid}
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err == nil {
		p.hwm = true
		return p
	}
	p.stop = make(chan struct{})
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			if v, err := statusBytes(pid, "VmRSS"); err == nil && v > p.sampled.Load() {
				p.sampled.Store(v)
			}
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

// end returns the peak RSS since start and how it was measured.
func (p *peakRSS) end() (uint64, string, error) {
	if p.hwm {
		v, err := statusBytes(p.pid, "VmHWM")
		return v, rssByHWM, err
	}
	close(p.stop)
	p.done.Wait()
	return p.sampled.Load(), rssBySampling, nil
}

// How the API server's peak RSS was measured.
const (
	rssByHWM      = "VmHWM after clear_refs"
	rssBySampling = "VmRSS sampled every 50 ms"
)
