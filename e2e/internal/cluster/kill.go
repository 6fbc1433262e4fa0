package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// findChild returns the pid of this process's child running binary with an
// argument equal to arg, read from /proc (Linux).
func findChild(binary, arg string) (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmdline) == 0 {
			continue
		}
		args := strings.Split(string(bytes.TrimRight(cmdline, "\x00")), "\x00")
		if args[0] != binary || !containsArg(args[1:], arg) {
			continue
		}
		if ppid, err := parentPID(pid); err != nil || ppid != self {
			continue
		}
		return pid, nil
	}
	return 0, fmt.Errorf("cluster: no child process %s with %s", filepath.Base(binary), arg)
}

func containsArg(args []string, arg string) bool {
	for _, a := range args {
		if a == arg {
			return true
		}
	}
	return false
}

// parentPID reads the parent pid from /proc/<pid>/stat.
func parentPID(pid int) (int, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is parenthesised and may hold spaces:
	// the fields after the last ')' are "state ppid ...".
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("cluster: malformed /proc stat")
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return 0, errors.New("cluster: malformed /proc stat")
	}
	return strconv.Atoi(fields[1])
}

// killAndReap sends SIGKILL to pid and waits until the process is gone
// (reaped by envtest's waiting goroutine).
func killAndReap(pid int, timeout time.Duration) error {
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("cluster: kill %d: %w", pid, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); os.IsNotExist(err) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cluster: process %d not reaped %v after SIGKILL", pid, timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
