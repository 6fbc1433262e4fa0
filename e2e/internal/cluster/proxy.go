package cluster

import (
	"errors"
	"io"
	"net"
	"sync"

	"k8s.io/client-go/rest"
)

// Proxy is a loopback TCP proxy in front of the API server. Clients built
// with Config talk to the API server through it, so a test can cut their
// connections (in-flight watches included) without touching the server.
//
// All methods are safe for concurrent use.
type Proxy struct {
	target string
	ln     net.Listener

	mu      sync.Mutex
	conns   map[net.Conn]struct{} // both sides of every live pair
	blocked bool
	closed  bool

	wg sync.WaitGroup // accept loop and copy goroutines
}

// NewProxy listens on a free port of 127.0.0.1 and forwards every
// connection to target (host:port), until Close.
func NewProxy(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{target: target, ln: ln, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr returns the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Config returns a copy of cfg that reaches the API server through the
// proxy. The serving certificate names 127.0.0.1, so TLS verification
// still holds.
func (p *Proxy) Config(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Host = "https://" + p.Addr()
	return c
}

// Cut closes every proxied connection and refuses (accepts and at once
// closes) new ones until Restore. Clients see their requests and watches
// fail with connection errors.
func (p *Proxy) Cut() {
	p.mu.Lock()
	p.blocked = true
	p.mu.Unlock()
	p.Reset()
}

// Restore lets new connections through again after Cut.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.blocked = false
	p.mu.Unlock()
}

// Reset closes every proxied connection now but keeps accepting new ones:
// clients reconnect at once.
func (p *Proxy) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Close stops the proxy, closes every connection and waits for its
// goroutines to end. It is safe to call more than once.
func (p *Proxy) Close() error {
	p.mu.Lock()
	already := p.closed
	p.closed = true
	p.mu.Unlock()
	var err error
	if !already {
		err = p.ln.Close()
	}
	p.Reset()
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		p.mu.Lock()
		refuse := p.blocked || p.closed
		p.mu.Unlock()
		if refuse {
			client.Close()
			continue
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		if !p.track(client, server) {
			continue
		}
		p.wg.Add(2)
		go p.pipe(client, server)
		go p.pipe(server, client)
	}
}

// track registers a connection pair, or closes it when the proxy was cut
// or closed in the meantime.
func (p *Proxy) track(a, b net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.blocked || p.closed {
		a.Close()
		b.Close()
		return false
	}
	p.conns[a] = struct{}{}
	p.conns[b] = struct{}{}
	return true
}

// pipe copies src to dst until either side fails, then closes both so the
// opposite pipe ends too.
func (p *Proxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, _ = io.Copy(dst, src)
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
	dst.Close()
	src.Close()
}
