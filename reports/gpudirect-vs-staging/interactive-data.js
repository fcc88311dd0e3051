window.RDMASIM_DATA = {"scenario": "gpudirect-vs-staging",
"cdf": [
{"variant": "pix-gpudirect", "label": "pix-gpudirect (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [4.231804E-4], "fraction": [1]},
{"variant": "pix-staged", "label": "pix-staged", "fanout": false, "seconds": [0.013962605720429119], "fraction": [1]},
{"variant": "pix-gpudirect-acs-on", "label": "pix-gpudirect-acs-on (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [4.240604E-4], "fraction": [1]},
{"variant": "node-gpudirect", "label": "node-gpudirect (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [4.236204E-4], "fraction": [1]},
{"variant": "node-nccl-gdr-level-pxb", "label": "node-nccl-gdr-level-pxb (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [4.236204E-4], "fraction": [1]},
{"variant": "sys-gpudirect", "label": "sys-gpudirect (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [4.236204E-4], "fraction": [1]},
{"variant": "sys-staged", "label": "sys-staged", "fanout": false, "seconds": [0.01396304572042912], "fraction": [1]},
{"variant": "phb-gpudirect", "label": "phb-gpudirect (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [4.236204E-4], "fraction": [1]},
{"variant": "phb-staged", "label": "phb-staged", "fanout": false, "seconds": [0.01396304572042912], "fraction": [1]},
{"variant": "8-gpus-push-gpudirect", "label": "8-gpus-push-gpudirect", "fanout": false, "seconds": [0.0868244928], "fraction": [1]},
{"variant": "8-gpus-push-staged", "label": "8-gpus-push-staged", "fanout": false, "seconds": [3.568168668973726], "fraction": [1]},
{"variant": "pix-staged-rendezvous", "label": "pix-staged-rendezvous (calibrated: qpReadRate 320 Gbps, novitalabs/pegaflow #291)", "fanout": false, "seconds": [4.5518040000000004E-4], "fraction": [1]},
{"variant": "8-gpus-push-staged-rendezvous", "label": "8-gpus-push-staged-rendezvous", "fanout": false, "seconds": [0.11186650666666667], "fraction": [1]}],
"timelines": [
{"variant": "pix-gpudirect", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [2.4E-6,4.218304E-4], "gbps": [320,0]}]},
{"variant": "pix-staged", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.5692575838037973E-5,0.013947963144591081], "gbps": [9.63358609335511,0]}]},
{"variant": "pix-gpudirect-acs-on", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [2.84E-6,4.222704E-4], "gbps": [320,0]}]},
{"variant": "node-gpudirect", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_3", "from_s": [2.62E-6,4.220504E-4], "gbps": [320,0]}]},
{"variant": "node-nccl-gdr-level-pxb", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_3", "from_s": [2.62E-6,4.220504E-4], "gbps": [320,0]}]},
{"variant": "sys-gpudirect", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_6", "from_s": [2.62E-6,4.220504E-4], "gbps": [320,0]}]},
{"variant": "sys-staged", "notes": [], "nics": [
 {"nic": "a:mlx5_6", "from_s": [1.5912575838037975E-5,0.013948183144591082], "gbps": [9.63358609335511,0]}]},
{"variant": "phb-gpudirect", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [2.62E-6,4.220504E-4], "gbps": [320,0]}]},
{"variant": "phb-staged", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.5912575838037975E-5,0.013948183144591082], "gbps": [9.63358609335511,0]}]},
{"variant": "8-gpus-push-gpudirect", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.05E-6,0.0868231428], "gbps": [395.7487922705314,0]},
 {"nic": "a:mlx5_3", "from_s": [1.05E-6,0.0868231428], "gbps": [395.7487922705314,0]},
 {"nic": "a:mlx5_4", "from_s": [1.05E-6,0.0868231428], "gbps": [395.7487922705314,0]},
 {"nic": "a:mlx5_5", "from_s": [1.05E-6,0.0868231428], "gbps": [395.7487922705314,0]},
 {"nic": "a:mlx5_6", "from_s": [1.05E-6,0.0868231428], "gbps": [395.7487922705314,0]},
 {"nic": "a:mlx5_9", "from_s": [1.05E-6,0.0868231428], "gbps": [395.7487922705314,0]},
 {"nic": "a:mlx5_10", "from_s": [1.05E-6,0.0868231428], "gbps": [395.7487922705314,0]},
 {"nic": "a:mlx5_11", "from_s": [1.05E-6,0.0868231428], "gbps": [395.7487922705314,0]}]},
{"variant": "8-gpus-push-staged", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.05E-6,3.56815402722606], "gbps": [9.62955865045669,0]},
 {"nic": "a:mlx5_3", "from_s": [1.05E-6,3.56815402722606], "gbps": [9.62955865045669,0]},
 {"nic": "a:mlx5_4", "from_s": [1.05E-6,3.56815402722606], "gbps": [9.62955865045669,0]},
 {"nic": "a:mlx5_5", "from_s": [1.05E-6,3.56815402722606], "gbps": [9.62955865045669,0]},
 {"nic": "a:mlx5_6", "from_s": [1.05E-6,3.56815402722606], "gbps": [9.62955865045669,0]},
 {"nic": "a:mlx5_9", "from_s": [1.05E-6,3.56815402722606], "gbps": [9.62955865045669,0]},
 {"nic": "a:mlx5_10", "from_s": [1.05E-6,3.56815402722606], "gbps": [9.62955865045669,0]},
 {"nic": "a:mlx5_11", "from_s": [1.05E-6,3.56815402722606], "gbps": [9.62955865045669,0]}]},
{"variant": "pix-staged-rendezvous", "notes": ["CALIBRATED, not a mechanism: qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; it limits this variant's slowest pull."], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.8400000000000003E-5,4.3783040000000003E-4], "gbps": [320,0]}]},
{"variant": "8-gpus-push-staged-rendezvous", "notes": [], "nics": [
 {"nic": "a:mlx5_0", "from_s": [1.05E-6,0.11184915666666667], "gbps": [307.2,0]},
 {"nic": "a:mlx5_3", "from_s": [1.05E-6,0.11184915666666667], "gbps": [307.2,0]},
 {"nic": "a:mlx5_4", "from_s": [1.05E-6,0.11184915666666667], "gbps": [307.2,0]},
 {"nic": "a:mlx5_5", "from_s": [1.05E-6,0.11184915666666667], "gbps": [307.2,0]},
 {"nic": "a:mlx5_6", "from_s": [1.05E-6,0.11184915666666667], "gbps": [307.2,0]},
 {"nic": "a:mlx5_9", "from_s": [1.05E-6,0.11184915666666667], "gbps": [307.2,0]},
 {"nic": "a:mlx5_10", "from_s": [1.05E-6,0.11184915666666667], "gbps": [307.2,0]},
 {"nic": "a:mlx5_11", "from_s": [1.05E-6,0.11184915666666667], "gbps": [307.2,0]}]}],
"receivers": []};
