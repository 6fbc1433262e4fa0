package reflector

import (
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"
)

// pageSize is the Limit of the first page of a list at resourceVersion.
func (r *Engine) pageSize(resourceVersion string) int64 {
	switch {
	case r.cfg.Unpaged:
		return 0
	case r.run.PageSize > 0:
		return r.run.PageSize
	case r.paginatedResult:
		return DefaultPageSize
	case resourceVersion != "" && resourceVersion != "0":
		// A list not older than a known RV can be served whole from the
		// watch cache only without a limit; paging would force a
		// read from etcd (the client-go rule).
		return 0
	}
	return DefaultPageSize
}

// listStep is the list phase.
func (r *Engine) listStep(ctx context.Context, s protocol.State) protocol.Outcome {
	r.takeShard()
	scope := r.shardScope(ctx)
	if err := r.List(scope, s.ListFrom(r.LastSyncResourceVersion())); err != nil {
		if r.cutByShard(ctx, scope) {
			return r.cutEnding(ctx)
		}
		return protocol.Outcome{End: protocol.EndFailed, Err: err}
	}
	r.shardStored()
	return protocol.Outcome{End: protocol.EndStored}
}

// List lists every object at rv and replaces the store's content with
// them; a first list goes into the store page by page (see listedPages).
func (r *Engine) List(ctx context.Context, rv string) error {
	start := r.cfg.Clock.Now()
	pages := r.newListedPages()
	listRV, paginated, err := r.listAll(ctx, rv, pages)
	if err != nil && (isExpiredError(err) || isTooLargeResourceVersionError(err)) {
		// The resourceVersion is gone or not there yet: list the latest
		// state with a consistent read.
		rv = ""
		pages.restart()
		listRV, paginated, err = r.listAll(ctx, rv, pages)
	}
	if r.cfg.Metrics != nil {
		r.cfg.Metrics.ListDone(pages.n, r.cfg.Clock.Since(start), err)
	}
	if err == nil && rv == "0" && paginated {
		r.paginatedResult = true
	}
	if err != nil {
		pages.abandon()
		return fmt.Errorf("%s: list: %w", r.cfg.Name, err)
	}
	streamed := pages.first != nil
	if err := pages.finish(listRV); err != nil {
		return fmt.Errorf("%s: storing the list: %w", r.cfg.Name, err)
	}
	r.setLastSyncResourceVersion(listRV)
	klog.FromContext(ctx).V(2).Info("Caches populated", "reflector", r.cfg.Name, "items", pages.n, "streamed", streamed, "resourceVersion", listRV)
	return nil
}

// listAll lists at resourceVersion, page by page, into pages, and returns
// the list's resourceVersion and whether it came in several pages. When a
// continue token expires mid-way, the list restarts from scratch with a
// consistent read (RV ""), and unpaged when that expires too.
func (r *Engine) listAll(ctx context.Context, resourceVersion string, pages *listedPages) (string, bool, error) {
	limit := r.pageSize(resourceVersion)
	opts := r.withShard(metav1.ListOptions{ResourceVersion: resourceVersion, Limit: limit})
	n, restarts := 0, 0
	for {
		obj, err := r.lw.ListWithContext(ctx, opts)
		if err != nil {
			if opts.Continue != "" && isExpiredError(err) && restarts < 2 {
				klog.FromContext(ctx).V(2).Info("List continue token expired, restarting the list", "reflector", r.cfg.Name)
				restarts++
				if restarts == 2 {
					limit = 0
				}
				opts = r.withShard(metav1.ListOptions{Limit: limit})
				pages.restart()
				n = 0
				continue
			}
			return "", false, err
		}
		n++
		listMeta, err := r.addPage(ctx, pages, obj)
		if err != nil {
			return "", false, err
		}
		next := listMeta.GetContinue()
		if next == "" || opts.Limit == 0 {
			return listMeta.GetResourceVersion(), n > 1, nil
		}
		// Continue requests carry no resourceVersion: the token pins it.
		opts = r.withShard(metav1.ListOptions{Limit: opts.Limit, Continue: next})
	}
}

// addPage adds the objects of the listed page obj to pages and returns
// the page's list metadata.
func (r *Engine) addPage(ctx context.Context, pages *listedPages, obj runtime.Object) (metav1.ListInterface, error) {
	listMeta, err := meta.ListAccessor(obj)
	if err != nil {
		return nil, fmt.Errorf("unable to understand list result %T: %w", obj, err)
	}
	r.checkShardApplied(ctx, obj)
	page := make([]any, 0, meta.LenList(obj))
	err = meta.EachListItemWithAlloc(obj, func(item runtime.Object) error {
		if r.cfg.ExpectedType != nil && reflect.TypeOf(item) != r.cfg.ExpectedType {
			klog.FromContext(ctx).Error(nil, "Dropping listed object of unexpected type", "reflector", r.cfg.Name, "expectedType", r.cfg.ExpectedType, "actualType", reflect.TypeOf(item))
			return nil
		}
		if !r.inShard(ctx, item) {
			return nil
		}
		page = append(page, item)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("unable to extract list items of %T: %w", obj, err)
	}
	if err := pages.add(page); err != nil {
		return nil, err
	}
	return listMeta, nil
}
