// Package clientgodyn is a small garbage-collector-style monitor written
// against client-go v0.37's dynamic and metadata-only informers, as
// kube-controller-manager's garbage collector and quota monitor use them.
// apicompat's tests port it to the dynamic module by rewriting imports
// only, and run its tests on informer-gen's runtime.
package clientgodyn

import (
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/dynamic/dynamiclister"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/metadata/metadatalister"
	"k8s.io/client-go/tools/cache"
)

const ownerIndex = "ownerUID"

// ownerUIDs indexes an object by the UIDs of its owners.
func ownerUIDs(obj any) ([]string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	var uids []string
	for _, ref := range m.GetOwnerReferences() {
		uids = append(uids, string(ref.UID))
	}
	return uids, nil
}

// Monitor follows owners as unstructured objects and their dependents as
// metadata, and records the owners deleted.
type Monitor struct {
	owners     dynamiclister.Lister
	dependents metadatalister.Lister
	byOwner    cache.Indexer

	mu      sync.Mutex
	deleted []string // guarded by mu
}

// New returns the Monitor of owners (through dyn) and dependents
// (through md); the factories start it.
func New(dyn dynamicinformer.DynamicSharedInformerFactory, md metadatainformer.SharedInformerFactory, owners, dependents schema.GroupVersionResource) (*Monitor, error) {
	oi := dyn.ForResource(owners)
	di := md.ForResource(dependents)
	if err := di.Informer().AddIndexers(cache.Indexers{ownerIndex: ownerUIDs}); err != nil {
		return nil, err
	}
	m := &Monitor{
		owners:     dynamiclister.New(oi.Informer().GetIndexer(), owners),
		dependents: metadatalister.New(di.Informer().GetIndexer(), dependents),
		byOwner:    di.Informer().GetIndexer(),
	}
	_, err := oi.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: m.ownerDeleted})
	return m, err
}

func (m *Monitor) ownerDeleted(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.deleted = append(m.deleted, u.GetNamespace()+"/"+u.GetName())
}

// Deleted returns the owners deleted so far.
func (m *Monitor) Deleted() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.deleted)
}

// Dependents returns the names of the dependents of the owner
// namespace/name, sorted; an owner not in the cache is the lister's
// NotFound error.
func (m *Monitor) Dependents(namespace, name string) ([]string, error) {
	owner, err := m.owners.Namespace(namespace).Get(name)
	if err != nil {
		return nil, err
	}
	objs, err := m.byOwner.ByIndex(ownerIndex, string(owner.GetUID()))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, o := range objs {
		names = append(names, o.(interface{ GetName() string }).GetName())
	}
	slices.Sort(names)
	return names, nil
}

// DependentsIn returns how many dependents namespace holds.
func (m *Monitor) DependentsIn(namespace string) (int, error) {
	objs, err := m.dependents.Namespace(namespace).List(labels.Everything())
	return len(objs), err
}
