/**
 * What a model is made of, tensor by tensor: shapes as HuggingFace names them, dtypes (FP8 block scales
 * as tensors of their own), and how tensor-parallel and expert-parallel layouts cut each one
 * ({@link org.rdmasim.refit.model.TensorRole}).
 */
package org.rdmasim.refit.model;
