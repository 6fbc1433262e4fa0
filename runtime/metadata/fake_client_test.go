package metadata

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

// fakeClient serves a fixed list per namespace and records every request.
// Its watches stay open without events until their context ends.
type fakeClient struct {
	items map[string][]metav1.PartialObjectMetadata // by namespace; "" lists all

	mu       sync.Mutex
	requests []request
}

type request struct {
	verb      string
	resource  schema.GroupVersionResource
	namespace string
	opts      metav1.ListOptions
}

func (c *fakeClient) record(r request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = append(c.requests, r)
}

func (c *fakeClient) seen() []request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]request(nil), c.requests...)
}

func (c *fakeClient) List(_ context.Context, resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	c.record(request{"list", resource, namespace, opts})
	list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "10"}}
	for ns, items := range c.items {
		if namespace == metav1.NamespaceAll || ns == namespace {
			for _, item := range items {
				list.Items = append(list.Items, *item.DeepCopy())
			}
		}
	}
	return list, nil
}

func (c *fakeClient) Watch(ctx context.Context, resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (watch.Interface, error) {
	c.record(request{"watch", resource, namespace, opts})
	w := watch.NewFake()
	context.AfterFunc(ctx, w.Stop)
	return w, nil
}

func object(namespace, name string, managers ...string) metav1.PartialObjectMetadata {
	o := metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: "5", Labels: map[string]string{"app": name}}}
	for _, m := range managers {
		o.ManagedFields = append(o.ManagedFields, metav1.ManagedFieldsEntry{Manager: m, Operation: metav1.ManagedFieldsOperationUpdate})
	}
	return o
}
