package cluster

import (
	"context"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// CompactEtcd compacts etcd's history up to its current revision and
// returns that revision. Afterwards a watch that starts from an older
// resourceVersion and is served by etcd fails with 410 Gone ("too old
// resource version"); with the API server's watch cache enabled the cache
// may still serve it, see Options.DisableWatchCache.
func (c *Cluster) CompactEtcd(ctx context.Context) (int64, error) {
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   []string{c.EtcdURL()},
		DialTimeout: 10 * time.Second,
		Context:     ctx,
		// Keep the etcd client's own zap logger quiet.
		Logger: zap.NewNop(),
	})
	if err != nil {
		return 0, fmt.Errorf("cluster: etcd client: %w", err)
	}
	defer cli.Close()
	// Any read returns the store's current revision in its header.
	resp, err := cli.Get(ctx, "informer-gen-e2e-compact-probe")
	if err != nil {
		return 0, fmt.Errorf("cluster: etcd get: %w", err)
	}
	rev := resp.Header.Revision
	if _, err := cli.Compact(ctx, rev, clientv3.WithCompactPhysical()); err != nil {
		return 0, fmt.Errorf("cluster: etcd compact at %d: %w", rev, err)
	}
	return rev, nil
}
