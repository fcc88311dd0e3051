window.RDMASIM_DATA = {"scenario": "max-rma-rails-2-vs-4",
"cdf": [
{"variant": "gb200-rails-1", "label": "gb200-rails-1 (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.4155886055844156], "fraction": [1]},
{"variant": "gb200-rails-2", "label": "gb200-rails-2 (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.20779639779220782], "fraction": [1]},
{"variant": "gb200-rails-4", "label": "gb200-rails-4 (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.20779639779220782], "fraction": [1]},
{"variant": "gb200-rails-8", "label": "gb200-rails-8 (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.20779639779220782], "fraction": [1]},
{"variant": "gb200-rails-4-ucx-prefix", "label": "gb200-rails-4-ucx-prefix (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.1039002938961039], "fraction": [1]},
{"variant": "dgx-rails-1", "label": "dgx-rails-1 (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.40000375000000005], "fraction": [1]},
{"variant": "dgx-rails-2", "label": "dgx-rails-2 (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.34002726688701024], "fraction": [1]},
{"variant": "dgx-rails-4", "label": "dgx-rails-4", "fanout": false, "seconds": [0.32085517212468495], "fraction": [1]},
{"variant": "dgx-rails-8", "label": "dgx-rails-8", "fanout": false, "seconds": [0.29638031288581773], "fraction": [1]}],
"timelines": [
{"variant": "gb200-rails-1", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.4155870355844156], "gbps": [308,0]}]},
{"variant": "gb200-rails-2", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]}]},
{"variant": "gb200-rails-4", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]}]},
{"variant": "gb200-rails-8", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]}]},
{"variant": "gb200-rails-4-ucx-prefix", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.1038987238961039], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.1038987238961039], "gbps": [308,0]},
 {"nic": "source:mlx5_2", "from_s": [2.62E-6,0.1038987238961039], "gbps": [308,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.1038987238961039], "gbps": [308,0]}]},
{"variant": "dgx-rails-1", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.40000240000000004], "gbps": [320,0]}]},
{"variant": "dgx-rails-2", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,2.62E-6,0.1462392957870102,0.34002569688701023], "gbps": [320,225.62151694459388,320,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.1462392957870102], "gbps": [225.62151694459388,0]}]},
{"variant": "dgx-rails-4", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,2.62E-6,0.19295919980480195,0.1929851697746849,0.32085360212468494], "gbps": [320,112.81075847229694,150.41434462972924,320,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.19295919980480195,0.1929851697746849], "gbps": [112.81075847229694,150.41434462972924,0]},
 {"nic": "source:mlx5_4", "from_s": [2.62E-6,0.19295919980480195,0.1929851697746849], "gbps": [112.81075847229694,150.41434462972924,0]},
 {"nic": "source:mlx5_5", "from_s": [2.62E-6,0.19295919980480195], "gbps": [112.81075847229694,0]}]},
{"variant": "dgx-rails-8", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,2.62E-6,0.19280337998550415,0.1929851697746849,0.2963787428858177], "gbps": [395.7487922705314,112.81075847229694,128.9265811111965,395.7487922705314,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.19280337998550415,0.1929851697746849], "gbps": [112.81075847229694,128.9265811111965,0]},
 {"nic": "source:mlx5_4", "from_s": [2.62E-6,0.19280337998550415,0.1929851697746849], "gbps": [112.81075847229694,128.9265811111965,0]},
 {"nic": "source:mlx5_5", "from_s": [2.62E-6,0.19280337998550415,0.1929851697746849], "gbps": [112.81075847229694,64.46329055559825,0]}]}],
"receivers": []};
