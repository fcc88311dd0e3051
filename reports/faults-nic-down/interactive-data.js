window.RDMASIM_DATA = {"scenario": "faults-nic-down",
"cdf": [
{"variant": "healthy", "label": "healthy (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.20779639779220782], "fraction": [1]},
{"variant": "port-flap-300ms", "label": "port-flap-300ms", "fanout": false, "seconds": [1.281538221792208], "fraction": [1]},
{"variant": "port-down-for-good", "label": "port-down-for-good", "fanout": false, "seconds": [25.869809016000005], "fraction": [1]},
{"variant": "port-down-short-rc-timeout", "label": "port-down-short-rc-timeout", "fanout": false, "seconds": [1.307964792], "fraction": [1]},
{"variant": "port-degraded-half", "label": "port-degraded-half", "fanout": false, "seconds": [0.26932892776230466], "fraction": [1]}],
"timelines": [
{"variant": "healthy", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]}]},
{"variant": "port-flap-300ms", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it holds 1 of the 2 lanes."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.1,1.1737418240000002,1.281536651792208], "gbps": [308,0,308,0]}]},
{"variant": "port-down-for-good", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it holds 3 of the 6 lanes."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781,8.689937212,8.897729419792208,17.279874424000003,17.48766663179221], "gbps": [308,0,308,0,308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.1], "gbps": [308,0]}]},
{"variant": "port-down-short-rc-timeout", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it holds 3 of the 6 lanes."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781,0.502655804,0.7104480117922078,0.905311608,1.1131038157922077], "gbps": [308,0,308,0,308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.1], "gbps": [308,0]}]},
{"variant": "port-degraded-half", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it holds 1 of the 2 lanes."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.1,0.26932735776230465], "gbps": [308,196.07467687888945,0]}]}],
"receivers": []};
