package kafkaadmin

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// aclKey names one ACL of a principal: resource kind and name, pattern, operation, permission.
type aclKey struct {
	resource kmsg.ACLResourceType
	name     string
	pattern  kadm.ACLPattern
	op       kadm.ACLOperation
	perm     kmsg.ACLPermissionType
}

// wanted are the ACLs principal's Grants make.
func wanted(principal string) map[aclKey]bool {
	out := map[aclKey]bool{}
	for _, g := range Grants(principal) {
		kind := map[string]kmsg.ACLResourceType{TopicResource: kmsg.ACLResourceTypeTopic,
			GroupResource: kmsg.ACLResourceTypeGroup, TxnResource: kmsg.ACLResourceTypeTransactionalId}[g.Resource]
		pattern, perm := g.pattern(), kmsg.ACLPermissionTypeAllow
		if g.Deny {
			perm = kmsg.ACLPermissionTypeDeny
		}
		for _, n := range g.Names {
			for _, op := range g.Ops {
				out[aclKey{kind, n, pattern, op, perm}] = true
			}
		}
	}
	return out
}

// dropStale deletes the ACLs of principal its role no longer grants: an upgrade that narrows a
// role (the agents' groups, once any prefixed longhaul-agent-, now each agent's own) takes effect
// when `longhaul setup` or `admin add-agent` grants it again. grant runs first, so the principal
// is never without a right it keeps. It returns how many it deleted.
func dropStale(ctx context.Context, adm *kadm.Client, principal string) (int, error) {
	mine := func(b *kadm.ACLBuilder) *kadm.ACLBuilder {
		return b.AnyResource().ResourcePatternType(kadm.ACLPatternAny).Operations(kadm.OpAny)
	}
	want := wanted(principal)
	deleted := 0
	for _, filter := range []*kadm.ACLBuilder{
		mine(kadm.NewACLs().Allow("User:" + principal).AllowHosts()),
		mine(kadm.NewACLs().Deny("User:" + principal).DenyHosts()),
	} {
		described, err := adm.DescribeACLs(ctx, filter)
		if err != nil {
			return deleted, fmt.Errorf("kafka user %s: describe ACLs: %w", principal, err)
		}
		for _, d := range described {
			if d.Err != nil {
				return deleted, fmt.Errorf("kafka user %s: describe ACLs: %w %s", principal, d.Err, d.ErrMessage)
			}
			for _, a := range d.Described {
				if want[aclKey{a.Type, a.Name, a.Pattern, a.Operation, a.Permission}] {
					continue
				}
				if err := deleteOne(ctx, adm, a); err != nil {
					return deleted, fmt.Errorf("kafka user %s: %w", principal, err)
				}
				deleted++
			}
		}
	}
	return deleted, nil
}

// deleteOne deletes exactly the described ACL a.
func deleteOne(ctx context.Context, adm *kadm.Client, a kadm.DescribedACL) error {
	b := kadm.NewACLs().ResourcePatternType(a.Pattern).Operations(a.Operation)
	if a.Permission == kmsg.ACLPermissionTypeDeny {
		b.Deny(a.Principal).DenyHosts(a.Host)
	} else {
		b.Allow(a.Principal).AllowHosts(a.Host)
	}
	switch a.Type {
	case kmsg.ACLResourceTypeTopic:
		b.Topics(a.Name)
	case kmsg.ACLResourceTypeGroup:
		b.Groups(a.Name)
	case kmsg.ACLResourceTypeTransactionalId:
		b.TransactionalIDs(a.Name)
	default:
		return fmt.Errorf("a stale ACL on %s %s: not a kind Longhaul grants, left", a.Type, a.Name)
	}
	res, err := adm.DeleteACLs(ctx, b)
	if err == nil {
		for _, r := range res {
			if r.Err != nil {
				err = fmt.Errorf("%w %s", r.Err, r.ErrMessage)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("delete the stale ACL %s %s %s %s: %w", a.Permission, a.Operation, a.Type, a.Name, err)
	}
	return nil
}
