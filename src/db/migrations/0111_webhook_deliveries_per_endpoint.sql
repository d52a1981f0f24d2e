-- The worker claims each endpoint's first pending deliveries by itself (at most a few lanes per
-- endpoint, webhooks/queries.ts claimDue): an endpoint's pending rows in order, without reading
-- past another endpoint's backlog.
create index webhook_deliveries_endpoint_pending_idx on webhook_deliveries (endpoint_id, seq) where state = 'pending';
