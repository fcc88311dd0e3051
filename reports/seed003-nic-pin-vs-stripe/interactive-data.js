window.RDMASIM_DATA = {"scenario": "seed003-nic-pin-vs-stripe",
"cdf": [
{"variant": "gb200-mx-pin-auto", "label": "gb200-mx-pin-auto (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.4155886055844156], "fraction": [1]},
{"variant": "gb200-mx-pin-auto-uncalibrated", "label": "gb200-mx-pin-auto-uncalibrated", "fanout": false, "seconds": [0.32641043999999997], "fraction": [1]},
{"variant": "gb200-nixl-defaults", "label": "gb200-nixl-defaults (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.20779639779220782], "fraction": [1]},
{"variant": "gb200-stripe-4-rails", "label": "gb200-stripe-4-rails (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.20779639779220782], "fraction": [1]},
{"variant": "gb200-stripe-4-rails-ucx-prefix", "label": "gb200-stripe-4-rails-ucx-prefix (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.1039002938961039], "fraction": [1]},
{"variant": "gb200-stripe-8-rails", "label": "gb200-stripe-8-rails (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.20779639779220782], "fraction": [1]},
{"variant": "gb200-stripe-mx-0.5.1", "label": "gb200-stripe-mx-0.5.1 (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.4155886055844156], "fraction": [1]},
{"variant": "gb200-all-layers", "label": "gb200-all-layers (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.20779639779220782], "fraction": [1]},
{"variant": "gb200-4-lanes-forced", "label": "gb200-4-lanes-forced (calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449)", "fanout": false, "seconds": [0.20779639779220782], "fraction": [1]},
{"variant": "dgx-mx-pin-auto", "label": "dgx-mx-pin-auto", "fanout": false, "seconds": [0.32344125000000007], "fraction": [1]},
{"variant": "dgx-nixl-defaults", "label": "dgx-nixl-defaults (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [0.34002726688701024], "fraction": [1]},
{"variant": "dgx-stripe-4-rails", "label": "dgx-stripe-4-rails", "fanout": false, "seconds": [0.32085517212468495], "fraction": [1]},
{"variant": "dgx-all-layers", "label": "dgx-all-layers", "fanout": false, "seconds": [0.32085517212468495], "fraction": [1]}],
"timelines": [
{"variant": "gb200-mx-pin-auto", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.4155870355844156], "gbps": [308,0]}]},
{"variant": "gb200-mx-pin-auto-uncalibrated", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.32640886999999996], "gbps": [392.1493537577789,0]}]},
{"variant": "gb200-nixl-defaults", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]}]},
{"variant": "gb200-stripe-4-rails", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]}]},
{"variant": "gb200-stripe-4-rails-ucx-prefix", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.1038987238961039], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.1038987238961039], "gbps": [308,0]},
 {"nic": "source:mlx5_2", "from_s": [2.62E-6,0.1038987238961039], "gbps": [308,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.1038987238961039], "gbps": [308,0]}]},
{"variant": "gb200-stripe-8-rails", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]}]},
{"variant": "gb200-stripe-mx-0.5.1", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.4155870355844156], "gbps": [308,0]}]},
{"variant": "gb200-all-layers", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]}]},
{"variant": "gb200-4-lanes-forced", "notes": ["CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]},
 {"nic": "source:mlx5_1", "from_s": [2.62E-6,0.20779482779220781], "gbps": [308,0]}]},
{"variant": "dgx-mx-pin-auto", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,0.32343990000000006], "gbps": [395.7487922705314,0]}]},
{"variant": "dgx-nixl-defaults", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,2.62E-6,0.1462392957870102,0.34002569688701023], "gbps": [320,225.62151694459388,320,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.1462392957870102], "gbps": [225.62151694459388,0]}]},
{"variant": "dgx-stripe-4-rails", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,2.62E-6,0.19295919980480195,0.1929851697746849,0.32085360212468494], "gbps": [320,112.81075847229694,150.41434462972924,320,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.19295919980480195,0.1929851697746849], "gbps": [112.81075847229694,150.41434462972924,0]},
 {"nic": "source:mlx5_4", "from_s": [2.62E-6,0.19295919980480195,0.1929851697746849], "gbps": [112.81075847229694,150.41434462972924,0]},
 {"nic": "source:mlx5_5", "from_s": [2.62E-6,0.19295919980480195], "gbps": [112.81075847229694,0]}]},
{"variant": "dgx-all-layers", "notes": [], "nics": [
 {"nic": "source:mlx5_0", "from_s": [2.4E-6,2.62E-6,0.19295919980480195,0.1929851697746849,0.32085360212468494], "gbps": [320,112.81075847229694,150.41434462972924,320,0]},
 {"nic": "source:mlx5_3", "from_s": [2.62E-6,0.19295919980480195,0.1929851697746849], "gbps": [112.81075847229694,150.41434462972924,0]},
 {"nic": "source:mlx5_4", "from_s": [2.62E-6,0.19295919980480195,0.1929851697746849], "gbps": [112.81075847229694,150.41434462972924,0]},
 {"nic": "source:mlx5_5", "from_s": [2.62E-6,0.19295919980480195], "gbps": [112.81075847229694,0]}]}],
"receivers": []};
