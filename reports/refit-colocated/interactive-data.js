window.RDMASIM_DATA = {"scenario": "refit-colocated",
"cdf": [],
"timelines": [],
"receivers": []};
