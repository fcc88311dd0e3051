window.RDMASIM_DATA = {"scenario": "gb300-rails",
"cdf": [
{"variant": "rails-1", "label": "rails-1", "fanout": false, "seconds": [0.16172250000000005], "fraction": [1]},
{"variant": "rails-2", "label": "rails-2", "fanout": false, "seconds": [0.16172250000000005], "fraction": [1]},
{"variant": "rails-4", "label": "rails-4", "fanout": false, "seconds": [0.16172250000000005], "fraction": [1]},
{"variant": "rails-8", "label": "rails-8", "fanout": false, "seconds": [0.16172250000000005], "fraction": [1]},
{"variant": "rails-4-num-paths-4", "label": "rails-4-num-paths-4", "fanout": false, "seconds": [0.16172250000000005], "fraction": [1]},
{"variant": "rails-8-ucx-1.21", "label": "rails-8-ucx-1.21", "fanout": false, "seconds": [0.16172250000000005], "fraction": [1]}],
"timelines": [
{"variant": "rails-1", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.16172115000000004], "gbps": [791.4975845410628,0]}]},
{"variant": "rails-2", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.16172115000000004], "gbps": [791.4975845410628,0]}]},
{"variant": "rails-4", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.16172115000000004], "gbps": [791.4975845410628,0]}]},
{"variant": "rails-8", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.16172115000000004], "gbps": [791.4975845410628,0]}]},
{"variant": "rails-4-num-paths-4", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.16172115000000004], "gbps": [791.4975845410628,0]}]},
{"variant": "rails-8-ucx-1.21", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.16172115000000004], "gbps": [791.4975845410628,0]}]}],
"receivers": []};
