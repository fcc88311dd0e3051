window.RDMASIM_DATA = {"scenario": "imported-h100-host",
"cdf": [
{"variant": "pix-nic", "label": "pix-nic (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.40000375000000005], "fraction": [1]}],
"timelines": [
{"variant": "pix-nic", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.40000240000000004], "gbps": [320,0]}]}],
"receivers": []};
