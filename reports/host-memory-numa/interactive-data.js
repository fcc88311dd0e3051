window.RDMASIM_DATA = {"scenario": "host-memory-numa",
"cdf": [
{"variant": "own-socket-nic", "label": "own-socket-nic", "fanout": false, "seconds": [0.32343990000000006], "fraction": [1]},
{"variant": "other-socket-nic", "label": "other-socket-nic", "fanout": false, "seconds": [0.32343990000000006], "fraction": [1]},
{"variant": "ucx-2-rails", "label": "ucx-2-rails", "fanout": false, "seconds": [0.16172115000000004], "fraction": [1]}],
"timelines": [
{"variant": "own-socket-nic", "notes": [], "nics": [
 {"nic": "a:mlx5_6", "from_s": [1.05E-6,0.32343855000000005], "gbps": [395.7487922705314,0]}]},
{"variant": "other-socket-nic", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.05E-6,0.32343855000000005], "gbps": [395.7487922705314,0]}]},
{"variant": "ucx-2-rails", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.05E-6,0.16171980000000002], "gbps": [395.7487922705314,0]},
 {"nic": "a:mlx5_3", "from_s": [1.05E-6,0.16171980000000002], "gbps": [395.7487922705314,0]}]}],
"receivers": []};
