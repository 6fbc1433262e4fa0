package cache

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SyncErrorReporter is implemented by informers that tell why they have
// not synced (this package's shared informers do, and the factory's
// several-namespace informers). A shared informer factory puts the
// reasons in SyncResult.
type SyncErrorReporter interface {
	// SyncError returns the last list or watch failure of an informer
	// that has not synced yet, as an *InformerSyncError; nil once it has
	// synced, and while nothing failed.
	SyncError() error
}

// InformerSyncError is why an informer has not synced: the last failure
// of its list or watch, with the resource it was for and, for the
// failures that retrying does not heal, what to do. It wraps the failure,
// so errors.Is and errors.As reach the API error (apierrors.IsNotFound,
// apierrors.IsForbidden).
type InformerSyncError struct {
	// Resource is the informer's resource; empty when unknown (an informer
	// made without an Identifier, whose failure did not name it either).
	Resource schema.GroupVersionResource
	// Informer is the informer's name, used when Resource is empty.
	Informer string
	// Err is the failure as the informer's reflector reported it.
	Err error
}

func (e *InformerSyncError) Unwrap() error { return e.Err }

// Error names the resource and says what the failure means: for a 404
// "widgets.stable.example.com v1: the server does not serve this resource
// (is the CRD installed?)", for a 403 "pods: forbidden: list at the
// cluster scope (RBAC)", each followed by the failure itself.
func (e *InformerSyncError) Error() string {
	var status apierrors.APIStatus
	errors.As(e.Err, &status)
	switch {
	case apierrors.IsNotFound(e.Err):
		return fmt.Sprintf("%s: the server does not serve this resource (%s): %v", e.versionedName(status), notServedHint(e.group(status)), e.Err)
	case apierrors.IsForbidden(e.Err):
		return fmt.Sprintf("%s: forbidden: %s (RBAC): %v", e.name(status), forbiddenAction(status), e.Err)
	}
	return fmt.Sprintf("%s: %v", e.name(status), e.Err)
}

// name is the resource as "pods" or "widgets.stable.example.com", from
// Resource, else from the API error's details, else the informer's name.
func (e *InformerSyncError) name(status apierrors.APIStatus) string {
	if e.Resource.Resource != "" {
		return e.Resource.GroupResource().String()
	}
	if status != nil {
		if d := status.Status().Details; d != nil && d.Kind != "" {
			return schema.GroupResource{Group: d.Group, Resource: d.Kind}.String()
		}
	}
	return e.Informer
}

// versionedName is name followed by the version, when known.
func (e *InformerSyncError) versionedName(status apierrors.APIStatus) string {
	if e.Resource.Version == "" {
		return e.name(status)
	}
	return e.name(status) + " " + e.Resource.Version
}

func (e *InformerSyncError) group(status apierrors.APIStatus) string {
	if e.Resource.Resource != "" || status == nil || status.Status().Details == nil {
		return e.Resource.Group
	}
	return status.Status().Details.Group
}

// notServedHint says what to check when the server does not serve a
// resource of group: the CRD for a custom group, the API version
// otherwise.
func notServedHint(group string) string {
	if group == "" || !strings.Contains(group, ".") || strings.HasSuffix(group, ".k8s.io") {
		return "is this API version enabled on the server?"
	}
	return "is the CRD installed?"
}

// forbiddenAction is what a 403 refused, as "list at the cluster scope"
// or `watch in the namespace "a"`, read from kube-apiserver's message
// (`User "u" cannot list resource "pods" in API group "" at the cluster
// scope`); "list or watch" when the message is not in that form.
func forbiddenAction(status apierrors.APIStatus) string {
	if status == nil {
		return "list or watch"
	}
	msg := status.Status().Message
	verb := "list or watch"
	if _, rest, ok := strings.Cut(msg, "cannot "); ok {
		if v, _, ok := strings.Cut(rest, " "); ok {
			verb = v
		}
	}
	if strings.Contains(msg, "at the cluster scope") {
		return verb + " at the cluster scope"
	}
	if i := strings.Index(msg, "in the namespace "); i >= 0 {
		return verb + " " + msg[i:]
	}
	return verb
}

// recordingErrors returns the watch error handler of the informer's
// reflector: it keeps err for SyncError, tells the functions registered
// with AfterSyncError (unless the reflector tries again at once), then
// calls handler, or
// DefaultWatchErrorHandler when handler is nil.
func (s *sharedIndexInformer) recordingErrors(handler WatchErrorHandlerWithContext) WatchErrorHandlerWithContext {
	return func(ctx context.Context, r *Reflector, err error) {
		syncErr := &InformerSyncError{Resource: s.opts.Identifier.GroupVersionResource(), Informer: s.name, Err: err}
		s.lastErr.Store(syncErr)
		if r == nil || !r.retryingAtOnce {
			// A failure followed at once by another attempt (a watch
			// list falling back to a list) is not the informer's last
			// word: that attempt's outcome is.
			s.syncErrorSubs.notify(syncErr)
		}
		if handler == nil {
			DefaultWatchErrorHandler(ctx, r, err)
			return
		}
		handler(ctx, r, err)
	}
}

// SyncError returns why the informer has not synced: its reflector's last
// list or watch failure, as an *InformerSyncError; nil once it has synced
// or while nothing failed. See SyncErrorReporter.
func (s *sharedIndexInformer) SyncError() error {
	if s.HasSynced() {
		return nil
	}
	if err := s.lastErr.Load(); err != nil {
		return err
	}
	return nil
}
