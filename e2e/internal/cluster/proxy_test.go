package cluster

import (
	"bufio"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// echoServer answers every line with the same line, until closed.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	return ln.Addr().String()
}

func roundTrip(c net.Conn, msg string) (string, error) {
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, msg+"\n"); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return "", err
	}
	return line[:len(line)-1], nil
}

func dialOK(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if got, err := roundTrip(c, "ping"); err != nil || got != "ping" {
		t.Fatalf("round trip through proxy = %q, %v; want ping", got, err)
	}
	return c
}

func TestProxyForwardsCutsAndRestores(t *testing.T) {
	// Registered first, so it runs after every other cleanup.
	t.Cleanup(func() { goleak.VerifyNone(t) })
	target := echoServer(t)
	p, err := NewProxy(target)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	live := dialOK(t, p.Addr())

	p.Cut()
	if _, err := roundTrip(live, "after-cut"); err == nil {
		t.Fatal("connection open before Cut still works after it")
	}
	refused, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer refused.Close()
	if _, err := roundTrip(refused, "while-cut"); err == nil {
		t.Fatal("connection made while cut was forwarded")
	}

	p.Restore()
	dialOK(t, p.Addr())

	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := net.Dial("tcp", p.Addr()); err == nil {
		t.Fatal("proxy still accepts after Close")
	}
}

func TestProxyResetDropsConnectionsButAcceptsNew(t *testing.T) {
	// Registered first, so it runs after every other cleanup.
	t.Cleanup(func() { goleak.VerifyNone(t) })
	p, err := NewProxy(echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	live := dialOK(t, p.Addr())
	p.Reset()
	_, err = roundTrip(live, "after-reset")
	if err == nil {
		t.Fatal("connection open before Reset still works after it")
	}
	if errors.Is(err, net.ErrClosed) {
		t.Fatalf("the client side was closed locally, not by the proxy: %v", err)
	}
	dialOK(t, p.Addr())
}
