window.RDMASIM_DATA = {"scenario": "dgx-h100-nic-pin-vs-stripe",
"cdf": [
{"variant": "one-nic-pinned", "label": "one-nic-pinned (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.40000375000000005], "fraction": [1]},
{"variant": "two-lanes", "label": "two-lanes", "fanout": false, "seconds": [0.2836649866448975], "fraction": [1]},
{"variant": "four-lanes", "label": "four-lanes", "fanout": false, "seconds": [0.2836649226583863], "fraction": [1]}],
"timelines": [
{"variant": "one-nic-pinned", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.40000240000000004], "gbps": [320,0]}]},
{"variant": "two-lanes", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,2.62E-6,0.2836631966448975], "gbps": [320,225.62151694459388,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.2836631966448975,0.28366341664489747], "gbps": [225.62151694459388,320,0]}]},
{"variant": "four-lanes", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,2.62E-6,0.28366288461791994], "gbps": [320,112.81075847229694,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.28366288461791994,0.28366335265838627], "gbps": [112.81075847229694,150.41434462972924,0]},
 {"nic": "source:mlx5_4", "from_s": [2.62E-6,0.28366288461791994,0.28366335265838627], "gbps": [112.81075847229694,150.41434462972924,0]},
 {"nic": "source:mlx5_5", "from_s": [2.62E-6,0.28366288461791994,0.28366335265838627], "gbps": [112.81075847229694,150.41434462972924,0]}]}],
"receivers": []};
