module longhaul/testbed/netemu

go 1.22
