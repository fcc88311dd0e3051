window.RDMASIM_DATA = {"scenario": "message-size-sweep",
"cdf": [
{"variant": "read@4B", "label": "read@4B", "fanout": false, "seconds": [1.7155E-4], "fraction": [1]},
{"variant": "read@16B", "label": "read@16B", "fanout": false, "seconds": [1.7155E-4], "fraction": [1]},
{"variant": "read@64B", "label": "read@64B", "fanout": false, "seconds": [1.7155E-4], "fraction": [1]},
{"variant": "read@256B", "label": "read@256B", "fanout": false, "seconds": [1.7155E-4], "fraction": [1]},
{"variant": "read@1KiB", "label": "read@1KiB", "fanout": false, "seconds": [1.7155E-4], "fraction": [1]},
{"variant": "read@4KiB", "label": "read@4KiB", "fanout": false, "seconds": [1.7155E-4], "fraction": [1]},
{"variant": "read@16KiB", "label": "read@16KiB (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [4.124E-4], "fraction": [1]},
{"variant": "read@64KiB", "label": "read@64KiB (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.0016412], "fraction": [1]},
{"variant": "read@256KiB", "label": "read@256KiB (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.0065563999999999996], "fraction": [1]},
{"variant": "read@1MiB", "label": "read@1MiB (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.0262172], "fraction": [1]},
{"variant": "read@4MiB", "label": "read@4MiB (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.10486039999999999], "fraction": [1]},
{"variant": "read@16MiB", "label": "read@16MiB (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.4194332], "fraction": [1]},
{"variant": "read@64MiB", "label": "read@64MiB (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [1.6777244], "fraction": [1]},
{"variant": "read@256MiB", "label": "read@256MiB (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [6.7108891999999996], "fraction": [1]},
{"variant": "read@1GiB", "label": "read@1GiB (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [26.8435484], "fraction": [1]},
{"variant": "write@4B", "label": "write@4B", "fanout": false, "seconds": [5.1450000000000004E-5], "fraction": [1]},
{"variant": "write@16B", "label": "write@16B", "fanout": false, "seconds": [5.1450000000000004E-5], "fraction": [1]},
{"variant": "write@64B", "label": "write@64B", "fanout": false, "seconds": [5.1450000000000004E-5], "fraction": [1]},
{"variant": "write@256B", "label": "write@256B", "fanout": false, "seconds": [5.1450000000000004E-5], "fraction": [1]},
{"variant": "write@1KiB", "label": "write@1KiB", "fanout": false, "seconds": [5.1450000000000004E-5], "fraction": [1]},
{"variant": "write@4KiB", "label": "write@4KiB", "fanout": false, "seconds": [8.425000000000001E-5], "fraction": [1]},
{"variant": "write@16KiB", "label": "write@16KiB", "fanout": false, "seconds": [3.3265000000000004E-4], "fraction": [1]},
{"variant": "write@64KiB", "label": "write@64KiB", "fanout": false, "seconds": [0.0013262500000000002], "fraction": [1]},
{"variant": "write@256KiB", "label": "write@256KiB", "fanout": false, "seconds": [0.0053006500000000005], "fraction": [1]},
{"variant": "write@1MiB", "label": "write@1MiB", "fanout": false, "seconds": [0.021198250000000002], "fraction": [1]},
{"variant": "write@4MiB", "label": "write@4MiB", "fanout": false, "seconds": [0.08478865000000001], "fraction": [1]},
{"variant": "write@16MiB", "label": "write@16MiB", "fanout": false, "seconds": [0.33915025000000004], "fraction": [1]},
{"variant": "write@64MiB", "label": "write@64MiB", "fanout": false, "seconds": [1.3565966500000002], "fraction": [1]},
{"variant": "write@256MiB", "label": "write@256MiB", "fanout": false, "seconds": [5.4263822500000005], "fraction": [1]},
{"variant": "write@1GiB", "label": "write@1GiB", "fanout": false, "seconds": [21.705524650000005], "fraction": [1]}],
"timelines": [
{"variant": "read@4B", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,1.702E-4], "gbps": [0.18962962962962965,0]}]},
{"variant": "read@16B", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,1.702E-4], "gbps": [0.7585185185185186,0]}]},
{"variant": "read@64B", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,1.702E-4], "gbps": [3.0340740740740744,0]}]},
{"variant": "read@256B", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,1.702E-4], "gbps": [12.136296296296297,0]}]},
{"variant": "read@1KiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,1.702E-4], "gbps": [48.54518518518519,0]}]},
{"variant": "read@4KiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,1.702E-4], "gbps": [194.18074074074076,0]}]},
{"variant": "read@16KiB", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,4.1105E-4], "gbps": [320,0]}]},
{"variant": "read@64KiB", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,0.00163985], "gbps": [320,0]}]},
{"variant": "read@256KiB", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,0.00655505], "gbps": [320,0]}]},
{"variant": "read@1MiB", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,0.02621585], "gbps": [320,0]}]},
{"variant": "read@4MiB", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,0.10485905], "gbps": [320,0]}]},
{"variant": "read@16MiB", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,0.41943185], "gbps": [320,0]}]},
{"variant": "read@64MiB", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,1.67772305], "gbps": [320,0]}]},
{"variant": "read@256MiB", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,6.71088785], "gbps": [320,0]}]},
{"variant": "read@1GiB", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.4499999999999999E-6,26.843547049999998], "gbps": [320,0]}]},
{"variant": "write@4B", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,5.0100000000000005E-5], "gbps": [0.64,0]}]},
{"variant": "write@16B", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,5.0100000000000005E-5], "gbps": [2.56,0]}]},
{"variant": "write@64B", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,5.0100000000000005E-5], "gbps": [10.24,0]}]},
{"variant": "write@256B", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,5.0100000000000005E-5], "gbps": [40.96,0]}]},
{"variant": "write@1KiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,5.0100000000000005E-5], "gbps": [163.84,0]}]},
{"variant": "write@4KiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,8.290000000000001E-5], "gbps": [395.7487922705314,0]}]},
{"variant": "write@16KiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,3.3130000000000003E-4], "gbps": [395.7487922705314,0]}]},
{"variant": "write@64KiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,0.0013249000000000002], "gbps": [395.7487922705314,0]}]},
{"variant": "write@256KiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,0.005299300000000001], "gbps": [395.7487922705314,0]}]},
{"variant": "write@1MiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,0.0211969], "gbps": [395.7487922705314,0]}]},
{"variant": "write@4MiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,0.08478730000000001], "gbps": [395.7487922705314,0]}]},
{"variant": "write@16MiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,0.33914890000000003], "gbps": [395.7487922705314,0]}]},
{"variant": "write@64MiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,1.3565953000000002], "gbps": [395.7487922705314,0]}]},
{"variant": "write@256MiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,5.426380900000001], "gbps": [395.7487922705314,0]}]},
{"variant": "write@1GiB", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.0E-7,21.705523300000003], "gbps": [395.7487922705314,0]}]}],
"receivers": []};
