"""Longhaul's Grafana dashboards, one module each, and what they share (common)."""
